// The Solana namespace client of one Latch instance (the adapter's on-demand
// chunk): Wallet Standard discovery, connect, reconnect after a reload,
// disconnect, signing and the native balance. Its active connection lives in
// the instance's connection slice under `solana`, beside wagmi's eip155, so the
// account, the network switcher and the views follow it like any namespace;
// every wallet connected (multi-wallet) is listed there too, in
// `solanaConnections`, for listConnections.
import { base58 } from '../../base58'
import { LatchConnectError, toConnectError } from '../../connection/errors'
import { truncateDecimals } from '../../connection/format'
import type { ConnectionState, ConnectorInfo, NamespaceConnection, WalletConnection } from '../../connection/types'
import type { Latch } from '../../latch-types'
import { loadLazy } from '../../loadLazy'
import { formatDecimal } from '../../send/decimal'
import { sliceOf, type Store } from '../../store'
import type { LatchNetwork, NamespaceClient, NamespaceClientContext } from '../types'
import { solanaOnly as isSolanaNetwork, walletStandardChain } from './chains'
import type { SolanaNetwork } from './network'
import { solanaRpc, solanaRpcUrl } from './rpc'
import { featuresOf, watchWallets, type StandardAccount, type StandardWallet, type WalletWatcher } from './walletStandard'

/** Where the connected Solana wallets are remembered, the active one first (adapter.ts reads the same key; a copy, so this chunk imports no value of it). */
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

/** A connected wallet: the account in use, every Solana account it shared, and the unsubscribe of its account events. */
interface Held {
  readonly wallet: StandardWallet
  readonly account: StandardAccount
  readonly accounts: readonly StandardAccount[]
  readonly off: (() => void) | undefined
}

const holdsSolana = (a: StandardAccount) => a.chains.some((c) => c.startsWith('solana:'))

/**
 * createSolanaClient binds the Solana client to one instance (context.latch must be given). It keeps every wallet
 * the visitor connected (multi-wallet): the first is the active one, whose account is namespaces.solana; the list
 * (connectionState.solanaConnections) and the storage hold them all, the active one first.
 */
/** Solana's client: it keeps several connections itself, so it disconnects one of them too. */
export type SolanaClient = NamespaceClient & Required<Pick<NamespaceClient, 'disconnectConnection'>>

export function createSolanaClient(context: NamespaceClientContext): SolanaClient {
  if (!context.latch) throw new Error('The Solana client needs the Latch instance')
  const latch: Latch = context.latch()
  const internal = latch._internal
  const { storage, network: networkController } = internal
  const conn = sliceOf(internal.root, 'connection') as Store<ConnectionState>
  const solanaNetworks = internal.networks.filter((n: LatchNetwork) => isSolanaNetwork(n)) as SolanaNetwork[]
  const watcher: WalletWatcher | undefined = typeof window === 'undefined' ? undefined : watchWallets()
  // The connected wallets, the active one first.
  let held: readonly Held[] = []
  // Stored wallets that had not registered by the end of the reload's wait (the e-mail wallet registers once its
  // frame knows the visitor): reconnected silently when they do register, and kept in storage meanwhile.
  let late: readonly Stored[] = []
  // The wallet whose EVM side the visitor just connected: its Solana side connects too, even when it registers later (the e-mail wallet).
  let pairWith: string | undefined

  const state = (): NamespaceConnection => conn.getState().namespaces.solana ?? disconnectedNamespace
  const write = (next: NamespaceConnection) => conn.setState((c) => ({ namespaces: { ...c.namespaces, solana: Object.freeze({ ...next }) } }))
  const networkOf = (chainId: number | undefined): SolanaNetwork => {
    const active = networkController.store.getState().activeNetwork
    return (
      solanaNetworks.find((n) => n.id === chainId) ??
      (isSolanaNetwork(active) ? active : undefined) ??
      solanaNetworks.find((n) => n.id === state().chainId) ??
      solanaNetworks[0]!
    )
  }
  const connected = ({ wallet: w, account: a }: Held, network: SolanaNetwork): NamespaceConnection => ({
    status: 'connected',
    address: a.address as `0x${string}`,
    caipAddress: `${network.caipNetworkId}:${a.address}`,
    chainId: network.id,
    connectorId: solanaConnectorId(w.name),
    wallet: { name: w.name, icon: w.icon, rdns: undefined },
  })

  /**
   * Writes the active wallet's account as the namespace (disconnected when none is held) and the list of every
   * held wallet, in one change. A Solana network is the app's choice, not a wallet's: every wallet is listed on it.
   */
  const publishHeld = (network = networkOf(state().chainId)) => {
    const list: WalletConnection[] = held.map((h, i) =>
      Object.freeze({
        namespace: 'solana',
        connectorId: solanaConnectorId(h.wallet.name),
        name: h.wallet.name,
        icon: h.wallet.icon,
        rdns: undefined,
        accounts: [...new Set([h.account, ...h.accounts].map((a) => a.address))],
        chainId: network.id,
        isActive: i === 0,
      }),
    )
    conn.setState((c) => ({
      namespaces: { ...c.namespaces, solana: Object.freeze(held[0] ? connected(held[0], network) : disconnectedNamespace) },
      solanaConnections: Object.freeze(list),
    }))
  }

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

  /** Stores the held wallets (the active one first), then those still awaited from the last reload. */
  const remember = () => {
    const value: Stored[] = [...held.map((h) => ({ wallet: h.wallet.name, address: h.account.address })), ...late]
    try {
      if (value.length) storage.setItem(SOLANA_CONNECTION_KEY, JSON.stringify(value))
      else storage.removeItem(SOLANA_CONNECTION_KEY)
    } catch {
      // Storage can throw (private modes); the connection itself stands.
    }
  }
  /** The stored wallets, the active one first; a single one as stored before multi-wallet reads as a list of one. */
  const recall = (): Stored[] => {
    try {
      const value = JSON.parse(storage.getItem(SOLANA_CONNECTION_KEY) ?? '[]') as unknown
      return (Array.isArray(value) ? value : [value]).filter(
        (v): v is Stored => typeof (v as Stored | null)?.wallet === 'string' && typeof (v as Stored).address === 'string',
      )
    } catch {
      return []
    }
  }

  /** Drops a held wallet and stops following it; the next one becomes active when it was the active one. */
  const drop = (w: StandardWallet) => {
    const entry = held.find((h) => h.wallet === w)
    if (!entry) return
    entry.off?.()
    held = held.filter((h) => h !== entry)
    publishHeld()
    remember()
  }

  /**
   * Holds the wallet with its account (the stored `address`, else the first that holds a Solana chain), active or
   * after the others, and follows its account changes. A wallet already held is replaced.
   */
  const hold = (w: StandardWallet, accounts: readonly StandardAccount[], active: boolean, network: SolanaNetwork, address?: string) => {
    const a = accounts.find((x) => (address ? x.address === address : holdsSolana(x))) ?? (address ? undefined : accounts[0])
    if (!a) throw new LatchConnectError('unknown', `${w.name} gave no Solana account`)
    held.find((h) => h.wallet === w)?.off?.()
    const off = featuresOf(w)['standard:events']?.on('change', ({ accounts: next }) => {
      const entry = held.find((h) => h.wallet === w)
      if (!next || !entry) return
      const still = next.find((x) => x.address === entry.account.address) ?? next[0]
      if (!still) return drop(w)
      held = held.map((h) => (h === entry ? { ...h, account: still, accounts: next.filter(holdsSolana) } : h))
      publishHeld()
      remember()
    })
    const entry: Held = { wallet: w, account: a, accounts: accounts.filter(holdsSolana), off }
    const others = held.filter((h) => h.wallet !== w)
    held = active ? [entry, ...others] : [...others, entry]
    publishHeld(network)
    remember()
  }

  const findWallet = (name: string) => watcher?.list().find((w) => w.name === name)

  /**
   * Connects a wallet and makes it the active one. A wallet already connected becomes active without a prompt
   * (what switchConnection does); another is asked, and the wallets connected before stay connected.
   */
  async function connect(connectorId: string, options?: { chainId?: number | undefined }): Promise<NamespaceConnection> {
    const name = connectorId.startsWith('solana:') ? connectorId.slice('solana:'.length) : connectorId
    const w = findWallet(name)
    if (!w) throw new LatchConnectError('unknown', `No Solana wallet named ${name} is installed`)
    const known = held.find((h) => h.wallet === w)
    if (known) {
      held = [known, ...held.filter((h) => h !== known)]
      publishHeld(networkOf(options?.chainId))
      remember()
      return state()
    }
    late = late.filter((s) => s.wallet !== name)
    const before = state()
    // As wagmi does, a connect keeps the active account's data meanwhile, so a failure puts back exactly what was there.
    write({ ...before, status: 'connecting' })
    try {
      const { accounts } = await featuresOf(w)['standard:connect'].connect()
      hold(w, accounts.length ? accounts : w.accounts, true, networkOf(options?.chainId))
      return state()
    } catch (error) {
      write(before)
      throw toConnectError(error)
    }
  }

  /** Asks a stored wallet, silently, for the stored account; undefined (so it is forgotten) when it no longer gives it. */
  async function silently(stored: Stored, w: StandardWallet): Promise<readonly StandardAccount[] | undefined> {
    try {
      const { accounts } = await featuresOf(w)['standard:connect'].connect({ silent: true })
      const list = accounts.length ? accounts : w.accounts
      return list.some((a) => a.address === stored.address) ? list : undefined
    } catch {
      return undefined
    }
  }

  /** The wallet named `name` once it registers, or undefined after the reconnect's wait. */
  const registered = (name: string): Promise<StandardWallet | undefined> =>
    new Promise((resolve) => {
      const now = findWallet(name)
      if (now || !watcher) return resolve(now)
      const timer = setTimeout(() => (off(), resolve(undefined)), SOLANA_RECONNECT_WAIT_MS)
      const off = watcher.subscribe(() => {
        const found = findWallet(name)
        if (found) (clearTimeout(timer), off(), resolve(found))
      })
    })

  /**
   * The silent reconnect of a reload: waits for the stored active wallet to register, then asks every stored wallet
   * registered by then, together, for its stored account, and holds those that give it in the stored order (so the
   * active one stays active while it answers). Those not registered yet are reconnected when they register.
   */
  async function restore(): Promise<void> {
    const stored = recall()
    if (!stored.length || !watcher) return
    write({ ...disconnectedNamespace, status: 'reconnecting' })
    await registered(stored[0]!.wallet)
    const wallets = stored.map((s) => findWallet(s.wallet))
    const answers = await Promise.all(stored.map((s, i) => (wallets[i] ? silently(s, wallets[i]) : undefined)))
    late = stored.filter((_, i) => !wallets[i])
    stored.forEach((s, i) => {
      const accounts = answers[i]
      if (accounts) hold(wallets[i]!, accounts, false, networkOf(undefined), s.address)
    })
    publishHeld()
    remember()
  }

  // A wallet awaited since the reload registered: it is reconnected silently, active only when no other wallet is.
  const lateRestore = () => {
    for (const stored of late) {
      const w = findWallet(stored.wallet)
      if (!w) continue
      late = late.filter((s) => s !== stored)
      void silently(stored, w).then((accounts) => {
        if (accounts && !held.some((h) => h.wallet === w)) hold(w, accounts, !held.length, networkOf(undefined), stored.address)
        else remember()
      })
    }
  }

  // Picking a wallet that has both sides connects both: its EVM side connected, so its Solana side is asked too and,
  // like the EVM side, becomes the active one (its Solana side is not in the Connect list to add it otherwise).
  // Not while a Solana connect or reconnect runs, nor when that side is connected already.
  const pair = (name: string | undefined) => {
    const { status } = state()
    if (!name || status === 'connecting' || status === 'reconnecting' || held.some((h) => h.wallet.name === name) || !findWallet(name)) return
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
        () => held.forEach((h) => h.off?.()),
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
          if (current.status === 'connected' && isSolanaNetwork(network) && held.length) publishHeld(network)
          else write({ ...current })
        }),
      )
      // enableReconnect: false (spec §4) starts disconnected, remembered or not.
      if (internal.opts.enableReconnect) await restore()
      else write(disconnectedNamespace)
    })()
    return started
  }

  /**
   * Disconnects one held wallet: dropped here (the next one becomes active when it was the active one), then asked to
   * disconnect; a wallet that fails to is forgotten here anyway (spec §4). The last one going (or none being held)
   * ends the namespace: disconnected, with nothing remembered or awaited.
   */
  async function disconnectConnection(connectorId: string | undefined): Promise<void> {
    const entry = held.find((h) => solanaConnectorId(h.wallet.name) === connectorId)
    if (held.every((h) => h === entry)) {
      pairWith = undefined
      late = []
    }
    if (!entry) {
      if (!held.length) (publishHeld(), remember())
      return
    }
    drop(entry.wallet)
    try {
      await featuresOf(entry.wallet)['standard:disconnect']?.disconnect()
    } catch (error) {
      console.warn(`[latch] ${entry.wallet.name} failed to disconnect; it is forgotten here anyway`, error)
    }
  }

  const rpc = <T>(chainId: number, method: string, params: readonly unknown[]) => solanaRpc<T>(solanaRpcUrl(latch, networkOf(chainId)), method, params)
  const signer = () => {
    const active = held[0]
    if (!active || state().status !== 'connected') throw new Error('No Solana wallet is connected')
    return active
  }

  return {
    connect: async (connectorId, options) => (await start(), connect(connectorId, options)),
    reconnect: start,
    // As eip155's: the active wallet disconnects, and another connected one becomes active (spec §4).
    disconnect: () => disconnectConnection(held[0] && solanaConnectorId(held[0].wallet.name)),
    disconnectConnection,
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
      publishHeld(network)
    },
    provider: async () => held[0]?.wallet,
  }
}
