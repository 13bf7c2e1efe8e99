// @vitest-environment jsdom
import { cookieToInitialState, connect, getConnection, mock } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, describe, expect, it } from 'vitest'
import { createLatch } from './latch'
import { LatchOptionsError } from './options'
import { createSsrWagmiConfig, LATCH_WAGMI_COOKIE } from './ssr'

const options = { projectId: 'p1', apiUrl: 'https://latch.example', networks: [mainnet, sepolia] }

function clearCookies() {
  for (const pair of document.cookie.split('; ')) {
    const name = pair.split('=')[0]
    if (name) document.cookie = `${name}=;max-age=-1;path=/`
  }
}

describe('createSsrWagmiConfig', () => {
  afterEach(clearCookies)

  it("turns wagmi's ssr on and keeps its state in the latch.wagmi cookie", async () => {
    const config = createSsrWagmiConfig({ ...options, walletConnect: false })
    expect(config._internal.ssr).toBe(true)
    expect(config.storage?.key).toBe(LATCH_WAGMI_COOKIE)
    // ssr: the state is not read from storage at creation
    expect(getConnection(config).status).toBe('disconnected')

    await config.storage?.setItem('store', { state: { chainId: sepolia.id, connections: new Map(), current: null }, version: 2 })
    expect(document.cookie).toContain(`${LATCH_WAGMI_COOKIE}.store=`)
    // what a server does with the request's Cookie header
    const state = cookieToInitialState(config, document.cookie)
    expect(state?.chainId).toBe(sepolia.id)
  })

  it("reads chains through latchd's RPC proxy and includes WalletConnect, like createLatch", () => {
    const config = createSsrWagmiConfig(options)
    const url = (config.getClient({ chainId: sepolia.id }).transport as { url?: string }).url
    expect(url).toBe('https://latch.example/v1?chainId=eip155:11155111&projectId=p1')
    expect(config.connectors.map((c) => c.id)).toContain('walletConnect')
    expect(createSsrWagmiConfig({ ...options, walletConnect: false }).connectors.map((c) => c.id)).not.toContain('walletConnect')
  })

  it('is taken by createLatch as its wagmi config', async () => {
    const wagmiConfig = createSsrWagmiConfig({ ...options, walletConnect: false })
    const latch = createLatch({ ...options, walletConnect: false, wagmiConfig })
    expect(latch.getWagmiConfig()).toBe(wagmiConfig)
    latch.destroy()
  })

  it('keeps a connection in the cookie, which a server turns into the initial state', async () => {
    const account = '0x1234567890123456789012345678901234567890'
    const config = createSsrWagmiConfig({ ...options, walletConnect: false })
    const connector = config._internal.connectors.setup(mock({ accounts: [account] }))
    await connect(config, { connector, chainId: mainnet.id })
    // wagmi writes its store to storage asynchronously
    await new Promise((resolve) => setTimeout(resolve, 0))
    // the Cookie header the next request carries, read with the config the server makes for it
    const header = document.cookie
    const state = cookieToInitialState(createSsrWagmiConfig({ ...options, walletConnect: false }), header)
    expect(getConnection(config).status).toBe('connected')
    const current = state?.current ? state.connections.get(state.current) : undefined
    expect(current?.accounts).toEqual([account])
    expect(current?.chainId).toBe(mainnet.id)
  })

  it('refuses invalid options and an own wagmiConfig, naming the option', () => {
    expect(() => createSsrWagmiConfig({ networks: [] })).toThrow(new LatchOptionsError('`networks` must list at least one network'))
    const wagmiConfig = createSsrWagmiConfig(options)
    expect(() => createSsrWagmiConfig({ ...options, wagmiConfig })).toThrow(/leave `wagmiConfig` out/)
    expect(() => createSsrWagmiConfig({ ...options, apiUrl: 'ftp://x' })).toThrow(LatchOptionsError)
  })
})
