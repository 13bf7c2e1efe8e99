// Connecting without the modal: the headless actions (useLatchWallets) and a
// wallet button's (connectWalletById), over a real wagmi config with a
// scripted WalletConnect connector and an EIP-6963 wallet on a fake window.
import { createConfig, createConnector, custom } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatch } from '../../latch'
import type { LatchWallet } from '../../latch-types'
import { createMemoryStorage } from '../../storage'
import { injectedStandIn, scriptedWalletConnect } from '../../walletconnect/test/scripted'
import { LatchConnectError } from '../errors'
import { alice, createFakeWallet, installFakeWindow } from '../test/fakeWallet'
import { connectHeadless, resetWalletConnect } from './connectHeadless'
import { connectWalletById, LatchUnknownWalletError } from './connectWalletById'
import { findWallet, walletSlug } from './findWallet'

const networks = [mainnet, sepolia] as const
const rpc = custom({
  async request({ method }: { method: string }) {
    if (method === 'eth_getBalance') return '0x0'
    throw new Error(`unexpected ${method}`)
  },
})
const trustId = 'a'.repeat(64)
const metamaskId = 'b'.repeat(64)
/** The registry latchd serves: MetaMask (rdns io.metamask) and Trust Wallet. */
const registry = [
  { id: metamaskId, name: 'MetaMask', image_id: 'mm', mobile_link: 'metamask://', desktop_link: null, webapp_link: null, chains: ['eip155:1'], rdns: 'io.metamask' },
  { id: trustId, name: 'Trust Wallet', image_id: 'tw', mobile_link: 'trust:', desktop_link: null, webapp_link: null, chains: ['eip155:1'], rdns: 'com.trustwallet.app' },
]
const trust: LatchWallet = { id: trustId, name: 'Trust Wallet', kind: 'recommended', installed: false, mobileLink: 'trust:', webappLink: null, desktopLink: null }

let removeWindow: () => void
beforeEach(() => {
  removeWindow = installFakeWindow()
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input))
    if (url.pathname !== '/getWallets') throw new TypeError('fetch failed')
    const include = url.searchParams.get('include')?.split(',')
    const search = url.searchParams.get('search')?.toLowerCase()
    const data = registry.filter((w) => (!include || include.includes(w.id)) && (!search || w.name.toLowerCase().includes(search)))
    return new Response(JSON.stringify({ count: data.length, data }), { headers: { 'Content-Type': 'application/json' } })
  })
})
afterEach(() => {
  removeWindow()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function setup() {
  const { connectorFn, script } = scriptedWalletConnect()
  const wagmiConfig = createConfig({
    chains: networks,
    connectors: [connectorFn, createConnector(() => injectedStandIn())],
    storage: null,
    batch: { multicall: false },
    transports: { [mainnet.id]: rpc, [sepolia.id]: rpc },
  })
  const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [...networks], wagmiConfig })
  return { latch, script }
}

describe('connectHeadless', () => {
  it('pairs over WalletConnect with the modal never shown: the URI is offered, survives the modal opening and closing, and the session connects', async () => {
    const { latch, script } = setup()
    await latch.init()
    const done = connectHeadless(latch, trust)
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/^wc:pairing1@2/))
    expect(latch.getState().open).toBe(false)
    expect(latch.getState().walletConnect).toMatchObject({ pending: true, error: null })

    // The modal's lifecycle is not the headless pairing's: opening and closing it leaves the pairing on offer.
    latch.open()
    await vi.waitFor(() => expect(latch.getState().open).toBe(true))
    latch.close()
    expect(script.cancels).toBe(0)
    expect(latch.getState().walletConnect?.uri).toMatch(/^wc:pairing1@2/)

    script.approve!()
    await expect(done).resolves.toBeUndefined()
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: alice })
    expect(latch.getState().open).toBe(false)
    expect(latch.getState().walletConnect).toMatchObject({ uri: undefined, pending: false })
    latch.destroy()
  })

  it('a decline shows as the error beside a fresh pairing; a reset abandons it and rejects', async () => {
    const { latch, script } = setup()
    await latch.init()
    const done = connectHeadless(latch, trust)
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 2_000)
    script.decline!(Object.assign(new Error('User rejected.'), { code: 5000 }))
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing2/))
    expect(latch.getState().walletConnect).toMatchObject({ pending: true, error: { kind: 'user_rejected', message: 'Connection declined' } })

    resetWalletConnect(latch)
    await expect(done).rejects.toBeInstanceOf(LatchConnectError)
    expect(script.cancels).toBe(1)
    expect(latch.getState().walletConnect).toEqual({ uri: undefined, expiresAt: undefined, pending: false, error: null })
    expect(latch.getState().account.status).not.toBe('connected')
    latch.destroy()
  })

  it('connects a wallet a connector drives directly, without pushing ConnectingExternal', async () => {
    const { latch } = setup()
    await latch.init()
    await connectHeadless(latch, { ...trust, id: 'injected', name: 'Injected', installed: true, connectorId: 'injected' })
    expect(latch.getState().account.status).toBe('connected')
    expect(latch.getState().open).toBe(false)
    expect(latch.getState().view).toBe('Connect')
    latch.destroy()
  })
})

describe('a wallet button (findWallet, connectWalletById)', () => {
  it('names wallets as AppKit does', () => {
    expect(['MetaMask', 'Trust Wallet', 'Coinbase Wallet', 'OKX Wallet', 'Wallet'].map(walletSlug)).toEqual(['metamask', 'trust', 'coinbase', 'okx', 'wallet'])
  })

  it('connects an installed wallet (EIP-6963, matched by rdns) directly, the modal never opening', async () => {
    createFakeWallet({ rdns: 'io.metamask', name: 'MetaMask' }).announce()
    const { latch } = setup()
    await latch.init()
    const wallet = await findWallet(latch, 'metamask')
    expect(wallet).toMatchObject({ installed: true, connectorId: 'io.metamask' })
    const opened = vi.fn()
    latch.subscribe(() => latch.getState().open && opened())
    await expect(connectWalletById(latch, 'metamask')).resolves.toMatchObject({ name: 'MetaMask', installed: true })
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: alice })
    expect(opened).not.toHaveBeenCalled()
    latch.destroy()
  })

  it('a wallet not installed opens the modal on ConnectingWalletConnect for it (by name or registry id) and resolves once connected', async () => {
    const { latch, script } = setup()
    await latch.init()
    const done = connectWalletById(latch, 'trust')
    await vi.waitFor(() => expect(latch.getState().view).toBe('ConnectingWalletConnect'))
    expect(latch.getState().open).toBe(true)
    expect(latch.getState().viewData.wallet).toMatchObject({ id: trustId, name: 'Trust Wallet', mobileLink: 'trust:' })
    await vi.waitFor(() => expect(latch.getState().walletConnect?.uri).toMatch(/pairing1/))
    script.approve!()
    await expect(done).resolves.toMatchObject({ id: trustId })
    expect(await findWallet(latch, trustId)).toMatchObject({ id: trustId, installed: false })
    latch.destroy()
  })

  it('closing the modal before connecting rejects as a decline', async () => {
    const { latch } = setup()
    await latch.init()
    const done = connectWalletById(latch, trustId)
    await vi.waitFor(() => expect(latch.getState().view).toBe('ConnectingWalletConnect'))
    latch.close()
    await expect(done).rejects.toMatchObject({ name: 'LatchConnectError', kind: 'user_rejected' })
    latch.destroy()
  })

  it('an unknown wallet id is a clear error', async () => {
    const { latch } = setup()
    await latch.init()
    await expect(connectWalletById(latch, 'nosuchwallet')).rejects.toThrow(LatchUnknownWalletError)
    await expect(connectWalletById(latch, 'nosuchwallet')).rejects.toThrow('Unknown wallet "nosuchwallet"')
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })
})
