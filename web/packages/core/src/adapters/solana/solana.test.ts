// The solana adapter: its networks and ids, Wallet Standard discovery, and
// connect / reconnect / disconnect / switching through a Latch instance with
// an EVM chain beside a Solana network (wagmi's mock connector on the EVM
// side, a scripted Wallet Standard wallet on the Solana side).
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../../connection/test/fakeWallet'
import { base58 } from '../../base58'
import { listConnections } from '../../connection/connections'
import { connectionsOf } from '../../connection/actions/connections'
import { disconnectConnection } from '../../connection/actions/disconnectConnection'
import { switchConnection } from '../../connection/actions/switchConnection'
import { LatchConnectError } from '../../connection/errors'
import { createLatch } from '../../latch'
import type { Latch } from '../../latch-types'
import { createMemoryStorage, type KeyValueStorage } from '../../storage'
import { adapterOfNetwork, networkCaipId, networksForAccount } from '../registry'
import { SOLANA_CONNECTION_KEY } from './client'
import { walletStandardChain } from './chains'
import { defineSolanaNetwork, solanaDevnet, solanaMainnet, solanaNetworkId } from './network'
import { address, fakeSolanaWallet } from './test/fakeSolanaWallet'
import { watchWallets, type StandardWallet } from './walletStandard'

const local = defineSolanaNetwork({ reference: 'HQ2bJg89gcM1yyS9v27XxUxWLXzcssKs', name: 'Latch Solana Dev', rpcUrl: 'http://127.0.0.1:1/solana', testnet: true })
const other = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

let storage: KeyValueStorage
let win: EventTarget
beforeEach(() => {
  storage = createMemoryStorage()
  win = new EventTarget()
  vi.stubGlobal('localStorage', storage)
  vi.stubGlobal('window', win)
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** latchd is not running; Solana JSON-RPC answers getBalance with 2.5 SOL. */
function stubFetch() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    if (String(url).includes('chainId=solana')) {
      const { method, id } = JSON.parse(String(init?.body)) as { method: string; id: number }
      if (method === 'getBalance') return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: { context: { slot: 1 }, value: 2_512_345_678 } }))
    }
    throw new TypeError('fetch failed')
  })
}

function setup(options: { enableReconnect?: boolean } = {}) {
  const wagmiConfig = createConfig({
    chains: [mainnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    transports: { [mainnet.id]: custom({ request: async () => '0xde0b6b3a7640000' }) },
  })
  return createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://127.0.0.1:1', networks: [mainnet, local], wagmiConfig, ...options })
}

const solanaWalletOf = (latch: Latch, name = 'Phantomish') => latch.getState().wallets.find((w) => w.name === name)

describe('Solana networks and ids', () => {
  it('a Solana network carries its CAIP-2 id, the adapter and a negative id no EVM chain has', () => {
    expect(local.caipNetworkId).toBe('solana:HQ2bJg89gcM1yyS9v27XxUxWLXzcssKs')
    expect(local.id).toBeLessThan(0)
    expect(local.id).toBe(solanaNetworkId('HQ2bJg89gcM1yyS9v27XxUxWLXzcssKs'))
    expect(new Set([local.id, solanaMainnet.id, solanaDevnet.id]).size).toBe(3)
    expect(local.nativeCurrency).toEqual({ name: 'Solana', symbol: 'SOL', decimals: 9 })
    expect(networkCaipId(local)).toBe(local.caipNetworkId)
    expect(networkCaipId(mainnet)).toBe('eip155:1')
    expect(adapterOfNetwork(local).namespace).toBe('solana')
    expect(adapterOfNetwork(mainnet).namespace).toBe('eip155')
    expect(() => defineSolanaNetwork({ reference: 'not-base58!', name: 'x' })).toThrow(/genesis hash's first 32 base58 characters/)
  })

  it('an account is valid on its own namespace’s networks only', () => {
    const networks = [mainnet, local, solanaDevnet]
    expect(networksForAccount(`${local.caipNetworkId}:${address}`, networks)).toEqual([local, solanaDevnet])
    expect(networksForAccount(`eip155:1:${alice}`, networks)).toEqual([mainnet])
    expect(networksForAccount(`${local.caipNetworkId}:0xnot`, networks)).toEqual([])
  })

  it('the Wallet Standard names the public clusters; other networks go by their CAIP-2 id', () => {
    expect(walletStandardChain(solanaMainnet)).toBe('solana:mainnet')
    expect(walletStandardChain(solanaDevnet)).toBe('solana:devnet')
    expect(walletStandardChain(local)).toBe(local.caipNetworkId)
  })
})

describe('Wallet Standard discovery', () => {
  it('finds wallets registered before and after it starts, keeps Solana ones, and drops unregistered ones', () => {
    const early = fakeSolanaWallet('Early')
    early.register(win)
    const watcher = watchWallets(win)
    expect(watcher.list().map((w) => w.name)).toEqual(['Early'])
    const changed = vi.fn()
    watcher.subscribe(changed)
    fakeSolanaWallet('Late').register(win)
    // An EVM-only Wallet Standard wallet is not a Solana wallet.
    const evmOnly = { ...fakeSolanaWallet('Evm').wallet, chains: ['eip155:1'] } as StandardWallet
    let unregister: () => void = () => undefined
    win.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: ({ register }: { register: (w: StandardWallet) => () => void }) => void register(evmOnly) }))
    const late = fakeSolanaWallet('Gone')
    win.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: ({ register }: { register: (w: StandardWallet) => () => void }) => void (unregister = register(late.wallet)) }))
    expect(watcher.list().map((w) => w.name)).toEqual(['Early', 'Late', 'Gone'])
    unregister()
    expect(watcher.list().map((w) => w.name)).toEqual(['Early', 'Late'])
    expect(changed).toHaveBeenCalledTimes(3)
    watcher.stop()
  })
})

describe('the solana client through a Latch with an EVM chain and a Solana network', () => {
  beforeEach(() => void stubFetch())
  it('lists an installed Solana wallet, connects it, reads SOL, and remembers it', async () => {
    const phantom = fakeSolanaWallet()
    phantom.register(win)
    const latch = setup()
    await latch.init()
    const listed = solanaWalletOf(latch)
    expect(listed?.connectorId).toBe('solana:Phantomish')
    await latch.connectWallet(listed!)
    const { account } = latch.getState()
    expect(account).toMatchObject({ status: 'connected', address, caipAddress: `${local.caipNetworkId}:${address}`, chainId: local.id })
    // The account is a Solana one, so the active network follows it to the Solana network.
    expect(latch.getState().activeNetwork.id).toBe(local.id)
    await vi.waitFor(() => expect(latch.getState().account.balance).toEqual({ formatted: '2.512', symbol: 'SOL' }))
    expect(JSON.parse(storage.getItem(SOLANA_CONNECTION_KEY)!)).toEqual([{ wallet: 'Phantomish', address }])
    latch.destroy()
  })

  it('a declined connect is a user_rejected failure and stays disconnected', async () => {
    const phantom = fakeSolanaWallet()
    phantom.state.reject = true
    phantom.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet(solanaWalletOf(latch)!)
    expect(latch.getState().account.status).toBe('disconnected')
    expect(latch.getState().connectError?.kind).toBe('user_rejected')
    expect(storage.getItem(SOLANA_CONNECTION_KEY)).toBeNull()
    latch.destroy()
  })

  it('reconnects silently after a reload, and forgets a wallet that no longer authorizes the site', async () => {
    const phantom = fakeSolanaWallet()
    phantom.register(win)
    const first = setup()
    await first.init()
    await first.connectWallet(solanaWalletOf(first)!)
    first.destroy()

    // "Reload": a new instance over the same storage; the wallet registers after the app starts.
    win = new EventTarget()
    vi.stubGlobal('window', win)
    const second = setup()
    const started = second.init()
    setTimeout(() => phantom.register(win), 20)
    await started
    expect(second.getState().account).toMatchObject({ status: 'connected', address })
    expect(phantom.calls.filter((c) => c.method === 'connect').at(-1)?.input).toEqual({ silent: true })
    second.destroy()

    phantom.state.authorized = false
    win = new EventTarget()
    vi.stubGlobal('window', win)
    phantom.register(win)
    const third = setup()
    await third.init()
    expect(third.getState().account.status).toBe('disconnected')
    expect(storage.getItem(SOLANA_CONNECTION_KEY)).toBeNull()
    third.destroy()
  })

  it('a remembered connection reads as reconnecting before the client loads; enableReconnect: false asks nothing', async () => {
    storage.setItem(SOLANA_CONNECTION_KEY, JSON.stringify({ wallet: 'Phantomish', address }))
    const phantom = fakeSolanaWallet()
    phantom.state.authorized = true
    phantom.register(win)
    const latch = setup({ enableReconnect: false })
    // Before init (the client's chunk not loaded yet): reconnecting, so the EVM side does not take over meanwhile.
    expect(latch._internal.clients.get('solana')!.account().status).toBe('reconnecting')
    await latch.init()
    expect(latch.getState().account.status).toBe('disconnected')
    expect(phantom.calls).toEqual([])
    latch.destroy()
  })

  it('a stored wallet that registers after the wait (the e-mail wallet, once its frame knows the visitor) reconnects then', async () => {
    const phantom = fakeSolanaWallet()
    phantom.register(win)
    const first = setup()
    await first.init()
    await first.connectWallet(solanaWalletOf(first)!)
    first.destroy()

    win = new EventTarget()
    vi.stubGlobal('window', win)
    const second = setup()
    await second.init()
    // Not there within the wait: disconnected for now, and nothing forgotten.
    expect(second.getState().account.status).toBe('disconnected')
    expect(storage.getItem(SOLANA_CONNECTION_KEY)).not.toBeNull()
    phantom.register(win)
    await vi.waitFor(() => expect(second.getState().account).toMatchObject({ status: 'connected', address }))
    expect(phantom.calls.filter((c) => c.method === 'connect').at(-1)?.input).toEqual({ silent: true })
    second.destroy()
  })

  it('follows the wallet’s account change, signs messages, and disconnects', async () => {
    const phantom = fakeSolanaWallet()
    phantom.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet(solanaWalletOf(latch)!)
    phantom.switchAccount(other)
    expect(latch.getState().account.address).toBe(other)
    const solana = latch._internal.clients.get('solana')!
    await expect(solana.signMessage({ message: 'hello', address: other })).resolves.toBe(base58.encode(new Uint8Array(64).fill(9)))
    const signed = phantom.calls.find((c) => c.method === 'signMessage')?.input as { message: Uint8Array }[]
    expect(new TextDecoder().decode(signed[0]!.message)).toBe('hello')
    await expect(solana.signMessage({ message: 'hello', address })).rejects.toThrow(`${address} is not the connected Solana account`)
    await latch.disconnect()
    expect(latch.getState().account.status).toBe('disconnected')
    expect(phantom.calls.at(-1)?.method).toBe('disconnect')
    expect(storage.getItem(SOLANA_CONNECTION_KEY)).toBeNull()
    latch.destroy()
  })

  it('with both namespaces connected, switching networks moves between the EVM and the Solana account', async () => {
    const phantom = fakeSolanaWallet()
    phantom.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet({ id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' })
    expect(latch.getState().account.caipAddress).toBe(`eip155:1:${alice}`)
    await latch.connectWallet(solanaWalletOf(latch)!)
    await latch.switchNetwork(mainnet.id)
    expect(latch.getState().account.caipAddress).toBe(`eip155:1:${alice}`)
    expect(latch.getState().activeNetwork.id).toBe(mainnet.id)
    await latch.switchNetwork(local.id)
    expect(latch.getState().activeNetwork.id).toBe(local.id)
    expect(latch.getState().account.caipAddress).toBe(`${local.caipNetworkId}:${address}`)
    await vi.waitFor(() => expect(latch.getState().account.balance?.symbol).toBe('SOL'))
    await latch.switchNetwork(mainnet.id)
    expect(latch.getState().account.caipAddress).toBe(`eip155:1:${alice}`)
    await vi.waitFor(() => expect(latch.getState().account.balance?.symbol).toBe('ETH'))
    // Disconnect leaves both.
    await latch.disconnect()
    expect(latch._internal.clients.get('solana')!.account().status).toBe('disconnected')
    expect(latch._internal.clients.get('eip155')!.account().status).toBe('disconnected')
    latch.destroy()
  })
})

describe('several Solana wallets connected at once (multi-wallet)', () => {
  beforeEach(() => void stubFetch())
  const ids = (latch: Latch) => listConnections(latch._internal.connection, 'solana').map((c) => [c.connectorId, c.accounts[0], c.isActive])
  const stored = () => JSON.parse(storage.getItem(SOLANA_CONNECTION_KEY) ?? 'null') as unknown

  /** Two installed wallets, Phantomish (address) connected first, then Otherish (other), which is active. */
  async function connectBoth() {
    const a = fakeSolanaWallet('Phantomish', address)
    const b = fakeSolanaWallet('Otherish', other)
    a.register(win)
    b.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet(solanaWalletOf(latch, 'Phantomish')!)
    await latch.connectWallet(solanaWalletOf(latch, 'Otherish')!)
    return { latch, a, b }
  }

  it('connecting a second wallet keeps the first; the new one is active, drives the account, and both are remembered', async () => {
    const { latch } = await connectBoth()
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: other, caipAddress: `${local.caipNetworkId}:${other}` })
    expect(listConnections(latch._internal.connection, 'solana')).toEqual([
      { namespace: 'solana', connectorId: 'solana:Otherish', name: 'Otherish', icon: 'data:image/svg+xml;base64,', rdns: undefined, accounts: [other], chainId: local.id, isActive: true },
      { namespace: 'solana', connectorId: 'solana:Phantomish', name: 'Phantomish', icon: 'data:image/svg+xml;base64,', rdns: undefined, accounts: [address], chainId: local.id, isActive: false },
    ])
    expect(connectionsOf(latch)).toHaveLength(2)
    expect(stored()).toEqual([
      { wallet: 'Otherish', address: other },
      { wallet: 'Phantomish', address },
    ])
    latch.destroy()
  })

  it('a declined connect of another wallet leaves the connected one active and alone', async () => {
    const a = fakeSolanaWallet('Phantomish', address)
    const b = fakeSolanaWallet('Otherish', other)
    b.state.reject = true
    a.register(win)
    b.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet(solanaWalletOf(latch, 'Phantomish')!)
    await latch.connectWallet(solanaWalletOf(latch, 'Otherish')!)
    expect(latch.getState().connectError?.kind).toBe('user_rejected')
    expect(latch.getState().account).toMatchObject({ status: 'connected', address })
    expect(ids(latch)).toEqual([['solana:Phantomish', address, true]])
    expect(stored()).toEqual([{ wallet: 'Phantomish', address }])
    latch.destroy()
  })

  it('picking a wallet with both sides connects its Solana side beside a Solana wallet connected before, as the active one', async () => {
    const solo = fakeSolanaWallet('Phantomish', address)
    // The Solana side of the EVM wallet (wagmi's mock connector), under the same name.
    const dual = fakeSolanaWallet('Mock Connector', other)
    solo.register(win)
    dual.register(win)
    const latch = setup()
    await latch.init()
    await latch.connectWallet(solanaWalletOf(latch, 'Phantomish')!)
    await latch.connectWallet({ id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' })
    await vi.waitFor(() =>
      expect(ids(latch)).toEqual([
        ['solana:Mock Connector', other, true],
        ['solana:Phantomish', address, false],
      ]),
    )
    expect(dual.calls.map((c) => c.method)).toEqual(['connect'])
    latch.destroy()
  })

  it('switchConnection makes another wallet active without a prompt; the account and the stored order follow', async () => {
    const { latch, a } = await connectBoth()
    const callsBefore = a.calls.length
    await switchConnection(latch, 'solana:Phantomish')
    expect(latch._internal.connection.getState().namespaces.solana).toMatchObject({ address, connectorId: 'solana:Phantomish' })
    expect(ids(latch)).toEqual([
      ['solana:Phantomish', address, true],
      ['solana:Otherish', other, false],
    ])
    expect(a.calls.slice(callsBefore)).toEqual([])
    expect(stored()).toEqual([
      { wallet: 'Phantomish', address },
      { wallet: 'Otherish', address: other },
    ])
    // Signing goes to the active wallet.
    await latch._internal.clients.get('solana')!.signMessage({ message: 'hi', address })
    expect(a.calls.at(-1)?.method).toBe('signMessage')
    await expect(switchConnection(latch, 'solana:Nobody')).rejects.toBeInstanceOf(LatchConnectError)
    latch.destroy()
  })

  it('disconnectConnection disconnects that wallet only; the other becomes active; the last one ends the namespace', async () => {
    const { latch, a, b } = await connectBoth()
    await disconnectConnection(latch, 'solana:Phantomish')
    expect(a.calls.at(-1)?.method).toBe('disconnect')
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: other })
    expect(ids(latch)).toEqual([['solana:Otherish', other, true]])

    await latch.connectWallet(solanaWalletOf(latch, 'Phantomish')!)
    await disconnectConnection(latch, 'solana:Phantomish')
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: other })
    expect(stored()).toEqual([{ wallet: 'Otherish', address: other }])

    await disconnectConnection(latch, 'solana:Otherish')
    expect(b.calls.at(-1)?.method).toBe('disconnect')
    expect(latch.getState().account.status).toBe('disconnected')
    expect(ids(latch)).toEqual([])
    expect(stored()).toBeNull()
    latch.destroy()
  })

  it('disconnect() ends the active wallet and the other becomes active, as in eip155', async () => {
    const { latch, b } = await connectBoth()
    await latch.disconnect()
    expect(b.calls.at(-1)?.method).toBe('disconnect')
    expect(latch.getState().account).toMatchObject({ status: 'connected', address })
    expect(ids(latch)).toEqual([['solana:Phantomish', address, true]])
    latch.destroy()
  })

  it('an inactive wallet changing account updates its entry, not the account; one that drops every account is dropped', async () => {
    const { latch, a } = await connectBoth()
    const third = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'
    a.switchAccount(third)
    expect(ids(latch)).toEqual([
      ['solana:Otherish', other, true],
      ['solana:Phantomish', third, false],
    ])
    expect(latch.getState().account.address).toBe(other)
    expect(stored()).toEqual([
      { wallet: 'Otherish', address: other },
      { wallet: 'Phantomish', address: third },
    ])
    a.dropAccounts()
    expect(ids(latch)).toEqual([['solana:Otherish', other, true]])
    expect(stored()).toEqual([{ wallet: 'Otherish', address: other }])
    latch.destroy()
  })

  it('after a reload every remembered wallet comes back silently, the active one active; one that no longer authorizes is left out', async () => {
    const { latch, a, b } = await connectBoth()
    await switchConnection(latch, 'solana:Phantomish')
    latch.destroy()

    win = new EventTarget()
    vi.stubGlobal('window', win)
    const second = setup()
    const started = second.init()
    // The inactive one is there at once; the active one registers a little later, within the wait.
    b.register(win)
    setTimeout(() => a.register(win), 20)
    await started
    expect(second.getState().account).toMatchObject({ status: 'connected', address })
    expect(ids(second)).toEqual([
      ['solana:Phantomish', address, true],
      ['solana:Otherish', other, false],
    ])
    for (const w of [a, b]) expect(w.calls.filter((c) => c.method === 'connect').at(-1)?.input).toEqual({ silent: true })
    second.destroy()

    a.state.authorized = false
    win = new EventTarget()
    vi.stubGlobal('window', win)
    a.register(win)
    b.register(win)
    const third = setup()
    await third.init()
    expect(third.getState().account).toMatchObject({ status: 'connected', address: other })
    expect(ids(third)).toEqual([['solana:Otherish', other, true]])
    expect(stored()).toEqual([{ wallet: 'Otherish', address: other }])
    third.destroy()
  })

  it('a remembered wallet that registers after the wait joins the others, inactive, and stays remembered meanwhile', async () => {
    const { latch, a, b } = await connectBoth()
    latch.destroy()

    win = new EventTarget()
    vi.stubGlobal('window', win)
    b.register(win)
    const second = setup()
    await second.init()
    expect(ids(second)).toEqual([['solana:Otherish', other, true]])
    expect(stored()).toEqual([
      { wallet: 'Otherish', address: other },
      { wallet: 'Phantomish', address },
    ])
    a.register(win)
    await vi.waitFor(() =>
      expect(ids(second)).toEqual([
        ['solana:Otherish', other, true],
        ['solana:Phantomish', address, false],
      ]),
    )
    expect(second.getState().account.address).toBe(other)
    second.destroy()
  })

  it('a single wallet remembered before multi-wallet is restored', async () => {
    storage.setItem(SOLANA_CONNECTION_KEY, JSON.stringify({ wallet: 'Phantomish', address }))
    const phantom = fakeSolanaWallet()
    phantom.state.authorized = true
    phantom.register(win)
    const latch = setup()
    await latch.init()
    expect(latch.getState().account).toMatchObject({ status: 'connected', address })
    expect(stored()).toEqual([{ wallet: 'Phantomish', address }])
    latch.destroy()
  })
})
