// The Solana namespace client of one Latch instance (the adapter's on-demand
// chunk): Wallet Standard discovery, connect, reconnect after a reload,
// disconnect, signing and the native balance. Its connection lives in the
// instance's connection slice under `solana`, beside wagmi's eip155, so the
// account, the network switcher and the views follow it like any namespace.
import { base58 } from '../../base58'
import { LatchConnectError, toConnectError } from '../../connection/errors'
import { truncateDecimals } from '../../connection/format'
import type { ConnectionState, ConnectorInfo, NamespaceConnection } from '../../connection/types'
import type { Latch } from '../../latch-types'
import { loadLazy } from '../../loadLazy'
import { formatDecimal } from '../../send/decimal'
import { sliceOf } from '../../store'
import type { LatchNetwork, NamespaceClient, NamespaceClientContext } from '../types'
import { solanaOnly as isSolanaNetwork, walletStandardChain } from './chains'
import type { SolanaNetwork } from './network'
import { solanaRpc, solanaRpcUrl } from './rpc'
import { featuresOf, watchWallets, type StandardAccount, type StandardWallet, type WalletWatcher } from './walletStandard'

/** Where the connected Solana wallet is remembered (adapter.ts reads the same key; a copy, so this chunk imports no value of it). */
export const SOLANA_CONNECTION_KEY = 'latch:solana:connection'

const disconnectedNamespace: NamespaceConnection = Object.freeze({
  status: 'disconnected',
  address: undefined,
  caipAddress: undefined,
  chainId: undefined,
  connectorId: undefined,
  wallet: undefined,
})

/**
 * How long a reconnect waits for the stored wallet to register, 'reconnecting' meanwhile: longer than the EVM side
 * waits for an announcement, since the e-mail wallet registers only once its frame has loaded and knows the visitor.
 */
export const SOLANA_RECONNECT_WAIT_MS = 3000

/** The connector id of a Wallet Standard wallet in the Connect list. */
export const solanaConnectorId = (name: string) => `solana:${name}`

interface Stored {
  readonly wallet: string
  readonly address: string
}

/** createSolanaClient binds the Solana client to one instance (context.latch must be given). */
export function createSolanaClient(context: NamespaceClientContext): NamespaceClient {
  if (!context.latch) throw new Error('The Solana client needs the Latch instance')
  const latch: Latch = context.latch()
  const internal = latch._internal
  const { storage, network: networkController } = internal
  const conn = sliceOf(internal.root, 'connection')
  const solanaNetworks = internal.networks.filter((n: LatchNetwork) => isSolanaNetwork(n)) as SolanaNetwork[]
  const watcher: WalletWatcher | undefined = typeof window === 'undefined' ? undefined : watchWallets()
  let wallet: StandardWallet | undefined
  let account: StandardAccount | undefined
  let offChange: (() => void) | undefined
  // The wallet whose EVM side the visitor just connected: its Solana side connects too, even when it registers later (the e-mail wallet).
  let pairWith: string | undefined

  const state = (): NamespaceConnection => conn.getState().namespaces.solana ?? disconnectedNamespace
  const write = (next: NamespaceConnection) => conn.setState((c: ConnectionState) => ({ namespaces: { ...c.namespaces, solana: Object.freeze({ ...next }) } }))
  const networkOf = (chainId: number | undefined): SolanaNetwork => {
    const active = networkController.store.getState().activeNetwork
    return (
      solanaNetworks.find((n) => n.id === chainId) ??
      (isSolanaNetwork(active) ? active : undefined) ??
      solanaNetworks.find((n) => n.id === state().chainId) ??
      solanaNetworks[0]!
    )
  }
  const connected = (w: StandardWallet, a: StandardAccount, network: SolanaNetwork): NamespaceConnection => ({
    status: 'connected',
    address: a.address as `0x${string}`,
    caipAddress: `${network.caipNetworkId}:${a.address}`,
    chainId: network.id,
    connectorId: solanaConnectorId(w.name),
    wallet: { name: w.name, icon: w.icon, rdns: undefined },
  })

  // The Connect list: Solana wallets, except those the EVM list shows under the same name (picking one connects both).
  const publish = () => {
    const evmNames = new Set(conn.getState().connectors.map((c) => c.name))
    const listed: ConnectorInfo[] = (watcher?.list() ?? [])
      .filter((w) => !evmNames.has(w.name))
      .map((w) => ({ id: solanaConnectorId(w.name), name: w.name, icon: w.icon, rdns: solanaConnectorId(w.name), type: 'ANNOUNCED', namespace: 'solana' }))
    const before = conn.getState().walletStandard ?? []
    if (before.length === listed.length && before.every((c, i) => c.id === listed[i]!.id)) return
    conn.setState({ walletStandard: listed })
  }

  const remember = (value: Stored | undefined) => {
    try {
      if (value) storage.setItem(SOLANA_CONNECTION_KEY, JSON.stringify(value))
      else storage.removeItem(SOLANA_CONNECTION_KEY)
    } catch {
      // Storage can throw (private modes); the connection itself stands.
    }
  }
  const recall = (): Stored | undefined => {
    try {
      const value = JSON.parse(storage.getItem(SOLANA_CONNECTION_KEY) ?? 'null') as Stored | null
      return value && typeof value.wallet === 'string' && typeof value.address === 'string' ? value : undefined
    } catch {
      return undefined
    }
  }

  const forget = () => {
    offChange?.()
    offChange = undefined
    wallet = undefined
    account = undefined
    write(disconnectedNamespace)
  }

  /** Takes the wallet's account (the one that holds a Solana chain) and follows its account changes. */
  const adopt = (w: StandardWallet, accounts: readonly StandardAccount[], network: SolanaNetwork, address?: string): NamespaceConnection => {
    const a = accounts.find((x) => (address ? x.address === address : x.chains.some((c) => c.startsWith('solana:')))) ?? (address ? undefined : accounts[0])
    if (!a) throw new LatchConnectError('unknown', `${w.name} gave no Solana account`)
    offChange?.()
    wallet = w
    account = a
    offChange = featuresOf(w)['standard:events']?.on('change', ({ accounts: next }) => {
      if (!next || wallet !== w) return
      const still = next.find((x) => x.address === account?.address) ?? next[0]
      if (!still) {
        remember(undefined)
        forget()
        return
      }
      account = still
      write(connected(w, still, networkOf(state().chainId)))
      remember({ wallet: w.name, address: still.address })
    })
    const next = connected(w, a, network)
    write(next)
    remember({ wallet: w.name, address: a.address })
    return next
  }

  const findWallet = (name: string) => watcher?.list().find((w) => w.name === name)

  async function connect(connectorId: string, options?: { chainId?: number | undefined }): Promise<NamespaceConnection> {
    late = undefined
    const name = connectorId.startsWith('solana:') ? connectorId.slice('solana:'.length) : connectorId
    const w = findWallet(name)
    if (!w) throw new LatchConnectError('unknown', `No Solana wallet named ${name} is installed`)
    const before = state()
    write({ ...disconnectedNamespace, status: 'connecting' })
    try {
      const { accounts } = await featuresOf(w)['standard:connect'].connect()
      return adopt(w, accounts.length ? accounts : w.accounts, networkOf(options?.chainId))
    } catch (error) {
      write(before)
      throw toConnectError(error)
    }
  }

  /** The silent connect of a reload: the stored wallet, if it registers in time and still holds the stored account. */
  /** Asks the stored wallet, silently, for the stored account; forgets both when it no longer gives it. */
  async function silently(stored: Stored, w: StandardWallet): Promise<void> {
    try {
      const { accounts } = await featuresOf(w)['standard:connect'].connect({ silent: true })
      adopt(w, accounts.length ? accounts : w.accounts, networkOf(undefined), stored.address)
    } catch {
      remember(undefined)
      forget()
    }
  }

  // A stored wallet that had not registered within the wait (the e-mail wallet registers once its frame knows the
  // visitor): reconnected silently when it does register, while nothing else was connected meanwhile.
  let late: Stored | undefined

  /** The silent connect of a reload: the stored wallet, if it registers in time and still holds the stored account. */
  async function restore(): Promise<void> {
    const stored = recall()
    if (!stored || !watcher) return
    write({ ...disconnectedNamespace, status: 'reconnecting' })
    let w = findWallet(stored.wallet)
    if (!w) {
      w = await new Promise<StandardWallet | undefined>((resolve) => {
        const timer = setTimeout(() => (off(), resolve(undefined)), SOLANA_RECONNECT_WAIT_MS)
        const off = watcher.subscribe(() => {
          const found = findWallet(stored.wallet)
          if (found) (clearTimeout(timer), off(), resolve(found))
        })
      })
    }
    if (w) return silently(stored, w)
    late = stored
    write(disconnectedNamespace)
  }

  const lateRestore = () => {
    const w = late && findWallet(late.wallet)
    if (!late || !w) return
    const stored = late
    late = undefined
    if (state().status === 'disconnected') void silently(stored, w)
  }

  // Picking a wallet that has both sides connects both: its EVM side connected, so its Solana side is asked too.
  const pair = (name: string | undefined) => {
    if (!name || state().status !== 'disconnected' || !findWallet(name)) return
    pairWith = undefined
    void connect(solanaConnectorId(name)).catch((error: unknown) => console.warn(`[latch] ${name}: the Solana account did not connect`, error))
  }

  let started: Promise<void> | undefined
  const start = () => {
    started ??= (async () => {
      publish()
      watcher?.subscribe(() => (publish(), lateRestore(), pair(pairWith)))
      internal.cleanups.push(
        () => watcher?.stop(),
        conn.subscribe((next, prev) => {
          if (next.connectors !== prev.connectors) publish()
          const evm = next.namespaces.eip155
          const was = prev.namespaces.eip155
          if (evm.status === 'connected' && was.status === 'connecting') {
            pairWith = evm.wallet?.name
            pair(pairWith)
          }
          if (evm.status === 'disconnected') pairWith = undefined
        }),
        // Moving between an EVM and a Solana network changes whose account is shown: the slice changes, so the state follows.
        networkController.onNetworkSwitched(({ network, previous }) => {
          if (isSolanaNetwork(network) === isSolanaNetwork(previous)) return
          const current = state()
          if (current.status === 'connected' && isSolanaNetwork(network) && wallet && account) write(connected(wallet, account, network))
          else write({ ...current })
        }),
      )
      // enableReconnect: false (spec §4) starts disconnected, remembered or not.
      if (internal.opts.enableReconnect) await restore()
      else write(disconnectedNamespace)
    })()
    return started
  }

  const rpc = <T>(chainId: number, method: string, params: readonly unknown[]) => solanaRpc<T>(solanaRpcUrl(latch, networkOf(chainId)), method, params)
  const signer = () => {
    if (!wallet || !account || state().status !== 'connected') throw new Error('No Solana wallet is connected')
    return { wallet, account }
  }

  return {
    connect: async (connectorId, options) => (await start(), connect(connectorId, options)),
    reconnect: start,
    async disconnect() {
      const w = wallet
      pairWith = undefined
      late = undefined
      remember(undefined)
      forget()
      try {
        await featuresOf(w ?? ({ features: {} } as StandardWallet))['standard:disconnect']?.disconnect()
      } catch (error) {
        console.warn('[latch] the Solana wallet failed to disconnect; it is forgotten here anyway', error)
      }
    },
    account: (s = conn.getState()) => s.namespaces.solana ?? disconnectedNamespace,
    async balance({ address, chainId }) {
      const network = networkOf(chainId)
      const { value } = await rpc<{ value: number }>(chainId, 'getBalance', [address, { commitment: 'confirmed' }])
      const lamports = BigInt(value)
      const { decimals, symbol } = network.nativeCurrency
      return { formatted: truncateDecimals(formatDecimal(lamports, decimals), 3), symbol, value: lamports }
    },
    async sendDriver() {
      const m = await loadLazy().then((l) => l.solanaSendDriver())
      return m.createSolanaSendDriver({ latch, network: networkOf, signer })
    },
    async sendTransaction({ chainId, from, transaction }) {
      if (transaction.data) throw new Error('A Solana transaction here is a SOL transfer: call data is not supported')
      const m = await loadLazy().then((l) => l.solanaSendDriver())
      return m.sendLamports({ latch, network: networkOf, signer }, networkOf(chainId), from, transaction.to, transaction.value, {})
    },
    async signMessage({ message, address }) {
      const { wallet: w, account: a } = signer()
      if (address && address !== a.address) throw new Error(`${address} is not the connected Solana account`)
      const feature = featuresOf(w)['solana:signMessage']
      if (!feature) throw new Error(`${w.name} cannot sign messages`)
      const [out] = await feature.signMessage({ account: a, message: new TextEncoder().encode(message) })
      if (!out) throw new Error(`${w.name} returned no signature`)
      return base58.encode(out.signature)
    },
    async switchNetwork(network) {
      if (!isSolanaNetwork(network)) throw new Error(`${network.name} is not a Solana network`)
      const { wallet: w, account: a } = signer()
      if (!a.chains.includes(walletStandardChain(network)) && !w.chains.includes(walletStandardChain(network))) {
        console.warn(`[latch] ${w.name} does not list ${walletStandardChain(network)}; signing there may fail`)
      }
      write(connected(w, a, network))
    },
    provider: async () => wallet,
  }
}
