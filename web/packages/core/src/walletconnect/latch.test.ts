// WalletConnect inside createLatch, over a real wagmi config with a scripted
// WalletConnect connector (the SDK and relay are exercised by the browser test).
import { createConfig, createConnector, custom, http } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { Latch, LatchEvent, LatchWallet } from '../latch-types'
import { LatchOptionsError } from '../options'
import { createMemoryStorage } from '../storage'
import { WALLET_CONNECT_ID } from '../wallets'
import type { WalletConnectParameters } from './options'
import { PAIRING_LIFETIME_MS, PAIRING_RENEW_MARGIN_MS } from './pairing'
import { WALLET_CONNECT_CONNECTOR_ID } from './connector/connector'
import { injectedStandIn, scriptedWalletConnect } from './test/scripted'

const networks = [mainnet, sepolia] as const
const rpc = custom({
  async request({ method }: { method: string }) {
    if (method === 'eth_getBalance') return '0xde0b6b3a7640000' // 1 ETH
    throw new Error(`unexpected ${method}`)
  },
})

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function setup(options: { onlyWalletConnect?: boolean } = {}) {
  const { connectorFn, script } = scriptedWalletConnect()
  const wagmiConfig = createConfig({
    chains: networks,
    connectors: options.onlyWalletConnect ? [connectorFn] : [connectorFn, createConnector(() => injectedStandIn())],
    multiInjectedProviderDiscovery: !options.onlyWalletConnect,
    storage: null,
    batch: { multicall: false },
    transports: { [mainnet.id]: rpc, [sepolia.id]: rpc },
  })
  const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://127.0.0.1:1', networks: [...networks], wagmiConfig })
  const events: LatchEvent[] = []
  latch.subscribeEvents((e) => events.push(e))
  return { latch, script, events }
}

async function openModal(latch: Latch, view?: Parameters<Latch['open']>[0]) {
  latch.open(view)
  await vi.waitFor(() => expect(latch.getState().open).toBe(true))
}

const walletConnectRow = (latch: Latch): LatchWallet => {
  const row = latch.getState().wallets.find((w) => w.id === WALLET_CONNECT_ID)
  if (!row) throw new Error('no WalletConnect row')
  return row
}

describe('WalletConnect in createLatch', () => {
  it('lists the WalletConnect entry, shows the pairing URI, and connects when the wallet approves', async () => {
    const { latch, script, events } = setup()
    await latch.init()
    await openModal(latch)
    expect(latch.getState().wallets[0]).toMatchObject({ id: WALLET_CONNECT_ID, kind: 'walletConnect', name: 'WalletConnect' })

    await latch.connectWallet(walletConnectRow(latch))
    expect(latch.getState().view).toBe('ConnectingWalletConnect')
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toBe('wc:pairing1@2?relay-protocol=irn&symKey=1'))
    expect(latch.getState().walletConnect).toMatchObject({ pending: true, error: null })
    expect(latch.getState().account.status).toBe('connecting')

    script.approve!()
    await vi.waitFor(() => expect(latch.getState().account).toMatchObject({ status: 'connected', address: alice }))
    expect(latch.getState().open).toBe(false)
    expect(latch.getState().walletConnect).toEqual({ uri: undefined, expiresAt: undefined, pending: false, error: null })
    expect(events.map((e) => e.data.event)).toContain('CONNECT_SUCCESS')
    expect(events.find((e) => e.data.event === 'CONNECT_SUCCESS')?.data.properties).toEqual({ method: 'qrcode', name: 'WalletConnect' })
  })

  it('a registry wallet without a connector goes through WalletConnect with its links', async () => {
    const { latch } = setup()
    await latch.init()
    await openModal(latch)
    const trust: LatchWallet = {
      id: 'trust',
      name: 'Trust Wallet',
      kind: 'recommended',
      installed: false,
      mobileLink: 'trust:',
      webappLink: null,
      desktopLink: null,
    }
    await latch.connectWallet(trust)
    expect(latch.getState().view).toBe('ConnectingWalletConnect')
    expect(latch.getState().viewData.wallet).toMatchObject({ id: 'trust', name: 'Trust Wallet', mobileLink: 'trust:' })
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/^wc:pairing1@2/))
  })

  it('closing the modal abandons the pairing: wagmi stops connecting and a late approval cannot land', async () => {
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toBeDefined())
    latch.close()
    expect(script.cancels).toBe(1)
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('disconnected'))
    expect(latch.getState().walletConnect).toEqual({ uri: undefined, expiresAt: undefined, pending: false, error: null })
  })

  it('going back to Connect abandons the pairing too; coming back offers a new one', async () => {
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
    latch.goBack()
    expect(latch.getState().view).toBe('Connect')
    expect(script.cancels).toBe(1)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing2/))
  })

  it('renews the pairing 10 s before its 4 minutes are up', async () => {
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
    await vi.advanceTimersByTimeAsync(PAIRING_LIFETIME_MS - PAIRING_RENEW_MARGIN_MS)
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing2/))
    expect(script.cancels).toBe(1)
    // the view asking for a pairing now keeps the fresh one
    latch.pairWalletConnect()
    expect(script.connects).toBe(2)
  })

  it('a decline shows "Connection declined" and offers a new pairing', async () => {
    const { latch, script, events } = setup()
    await latch.init()
    await openModal(latch)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // spec §9: retry after 1 s
    script.decline!(Object.assign(new Error('User rejected.'), { code: 5000 }))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing2/))
    expect(latch.getState().walletConnect?.error).toEqual({ kind: 'user_rejected', message: 'Connection declined' })
    expect(latch.getState().view).toBe('ConnectingWalletConnect')
    expect(events.some((e) => e.data.event === 'CONNECT_ERROR')).toBe(true)
  })

  it('a disconnect from the wallet shows in the widget', async () => {
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toBeDefined())
    script.approve!()
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    script.endFromWallet!()
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('disconnected'))
  })

  it('disconnecting from the widget ends the session on the wallet', async () => {
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch)
    await latch.connectWallet(walletConnectRow(latch))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toBeDefined())
    script.approve!()
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    await latch.disconnect()
    expect(script.disconnects).toBe(1)
    expect(latch.getState().account.status).toBe('disconnected')
  })

  it('a registry wallet picked in All wallets and connected through WalletConnect becomes a recent wallet', async () => {
    const rainbow = {
      id: '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369',
      name: 'Rainbow',
      image_id: '7a33d7f1-3d12-4b5c-f3ee-5cd83cb1b500',
      mobile_link: 'rainbow:',
      desktop_link: null,
      webapp_link: null,
      rdns: 'me.rainbow',
    }
    vi.mocked(globalThis.fetch).mockImplementation(async (input) => {
      const url = new URL(String(input))
      if (url.pathname === '/getWallets') return Response.json({ count: 1, data: [rainbow] })
      throw new TypeError('fetch failed')
    })
    const { latch, script } = setup()
    await latch.init()
    await openModal(latch, { view: 'AllWallets' })
    const page = await latch.fetchWallets({ page: 1 })
    const picked = page.wallets.find((w) => w.id === rainbow.id)!
    expect(picked).toMatchObject({ name: 'Rainbow', mobileLink: 'rainbow:', installed: false })
    expect(picked.connectorId).toBeUndefined()

    await latch.connectWallet(picked)
    expect(latch.getState().view).toBe('ConnectingWalletConnect')
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toBeDefined())
    script.approve!()
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    expect(JSON.parse(localStorage.getItem('latch:recentWallets') ?? '[]')).toEqual([expect.objectContaining({ id: rainbow.id, name: 'Rainbow' })])
  })

  it('with WalletConnect as the only adapter, desktop opens on ConnectingWalletConnectBasic (spec §2)', async () => {
    const { latch } = setup({ onlyWalletConnect: true })
    await latch.init()
    await openModal(latch)
    expect(latch.getState().view).toBe('ConnectingWalletConnectBasic')
    latch.pairWalletConnect()
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
  })

  it('with other adapters, the modal opens on Connect', async () => {
    const { latch } = setup()
    await latch.init()
    await openModal(latch)
    expect(latch.getState().view).toBe('Connect')
  })
})

describe('createLatch builds the WalletConnect connector', () => {
  const base = { projectId: 'b'.repeat(32), apiUrl: 'https://latch.example', networks: [...networks] }

  function factory() {
    const calls: WalletConnectParameters[] = []
    const build = (parameters: WalletConnectParameters) => {
      calls.push(parameters)
      return scriptedWalletConnect().connectorFn
    }
    return { calls, build }
  }

  it('points the relay at latchd by default and passes metadata and namespaces', () => {
    const { calls, build } = factory()
    const metadata = { name: 'Dapp', description: 'd', url: 'https://dapp.example', icons: [] }
    const latch = createLatch(
      { ...base, metadata, walletConnect: { namespaces: { solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] } } },
      { walletConnect: build },
    )
    expect(calls).toEqual([
      {
        projectId: 'b'.repeat(32),
        apiUrl: 'https://latch.example',
        relayUrl: 'wss://latch.example',
        metadata,
        namespaces: { solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] },
        logLevel: 'silent',
      },
    ])
    expect(latch.getWagmiConfig().connectors.map((c) => c.type)).toEqual(['injected', 'walletConnect'])
    expect(latch.getState().walletConnect).not.toBeNull()
    latch.destroy()
  })

  it('leaves WalletConnect out with walletConnect: false or without a project id', () => {
    const { calls, build } = factory()
    const off = createLatch({ ...base, walletConnect: false }, { walletConnect: build })
    const { projectId: _, ...withoutProject } = base
    const noProject = createLatch(withoutProject, { walletConnect: build })
    expect(calls).toHaveLength(0)
    expect(off.getState().walletConnect).toBeNull()
    expect(off.getState().wallets.some((w) => w.id === WALLET_CONNECT_ID)).toBe(false)
    expect(noProject.getState().walletConnect).toBeNull()
    off.destroy()
    noProject.destroy()
  })

  it('rejects a malformed walletConnect option with LatchOptionsError', () => {
    const { build } = factory()
    expect(() => createLatch({ ...base, walletConnect: { relayUrl: 'https://relay.example' } }, { walletConnect: build })).toThrow(LatchOptionsError)
    expect(() => createLatch({ ...base, walletConnect: { namespaces: { solana: ['nope'] } } }, { walletConnect: build })).toThrow(
      'Invalid CAIP-2 network id: nope',
    )
  })

  it('includes core\'s own WalletConnect connector by default, its SDK not loaded', () => {
    const latch = createLatch(base)
    const connector = latch.getWagmiConfig().connectors.find((c) => c.type === 'walletConnect')
    expect(connector).toMatchObject({ id: WALLET_CONNECT_CONNECTOR_ID, name: 'WalletConnect' })
    expect(latch.getState().walletConnect).not.toBeNull()
    expect(latch.getState().wallets.some((w) => w.id === WALLET_CONNECT_ID)).toBe(true)
    latch.destroy()
  })

  it('walletConnect: false leaves core\'s connector out; an app\'s own wagmi config keeps its own', () => {
    const off = createLatch({ ...base, walletConnect: false })
    expect(off.getWagmiConfig().connectors.map((c) => c.type)).toEqual(['injected'])
    expect(off.getState().walletConnect).toBeNull()
    off.destroy()
    const wagmiConfig = createConfig({ chains: [mainnet], connectors: [], transports: { [mainnet.id]: http() } })
    const own = createLatch({ ...base, wagmiConfig })
    expect(own.getWagmiConfig().connectors).toHaveLength(0)
    own.destroy()
  })

  it('without WalletConnect, a registry-only wallet still says it is not installed', async () => {
    const latch = createLatch({ ...base, walletConnect: false })
    await latch.connectWallet({ id: 'trust', name: 'Trust Wallet', kind: 'recommended', installed: false })
    expect(latch.getState().view).toBe('ConnectingExternal')
    expect(latch.getState().connectError?.message).toBe('Trust Wallet is not installed')
    latch.destroy()
  })
})
