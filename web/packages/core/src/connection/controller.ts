// The connection controller: connect, restore on page load, follow the
// wallet, disconnect (spec §4), all over wagmi for eip155.
import {
  type Config,
  type CreateConnectorFn,
  connect as wagmiConnect,
  disconnect as wagmiDisconnect,
  getConnection,
  reconnect as wagmiReconnect,
  switchChain as wagmiSwitchChain,
  watchConnection,
  watchConnectors,
} from '@wagmi/core'
import type { Address, Chain } from 'viem'

import { liveConnectorIds, makeCurrent, rememberStoredConnectorIds } from './connections.js'
import { addAnnouncedConnectors, findConnector, listConnectors, toWalletInfo, waitForConnector } from './connectors.js'
import {
  LatchConnectError,
  LatchDisconnectError,
  LatchSwitchNetworkError,
  messageOf,
  toConnectError,
  toSwitchNetworkError,
} from './errors.js'
import { type ConnectionListener, createStateContainer } from './state.js'
import { loadLazy } from '../loadLazy'
import { createMemoryStorage } from '../storage'
import { type ConnectionStorage, createConnectionStorage } from './storage.js'
import {
  type ConnectionController,
  type ConnectionControllerParameters,
  type ConnectOptions,
  type ConnectionState,
  disconnectedNamespace,
  type NamespaceConnection,
  type StorageLike,
  type SupportedNamespace,
} from './types.js'
import { createDefaultWagmiConfig } from './wagmiConfig.js'
import { namespacesToDisconnect, type NamespaceConnector } from '../walletconnect/disconnect.js'
import {
  dropStaleConnections,
  hydrateWagmi,
  namespaceFromWagmi,
  parseEip155CaipAddress,
  waitForWagmiSettled,
} from './wagmiState.js'

/** How long startup waits for the stored wallet to announce itself (EIP-6963) before giving up. */
export const defaultAnnouncementTimeoutMs = 1_000

/**
 * Upper bound on a silent reconnect once the wallet is known. A wallet that
 * never answers `eth_accounts` must not leave the UI reconnecting forever;
 * this matches the RPC timeout of spec §9.
 */
export const reconnectTimeoutMs = 10_000

/** Namespaces driven by this controller. */
const supportedNamespaces: readonly SupportedNamespace[] = ['eip155']

export type { ConnectionController, ConnectionControllerParameters, ConnectOptions } from './types.js'

/** Creates the connection controller. Safe to call on the server: nothing touches `window` eagerly. */
export function createConnectionController(params: ConnectionControllerParameters): ConnectionController {
  const storage = params.storage ?? createMemoryStorage()
  const ownsConfig = params.wagmiConfig === undefined
  const config =
    params.wagmiConfig ??
    createDefaultWagmiConfig({ networks: params.networks, transportUrl: params.transportUrl, storage, connectors: params.connectors })
  const stored: ConnectionStorage = createConnectionStorage(storage)
  const enableReconnect = params.enableReconnect ?? true
  const announcementTimeoutMs = params.announcementTimeoutMs ?? defaultAnnouncementTimeoutMs

  // The wallets of the connections wagmi restored from its storage (a reload restores them all, not only the active one).
  const storedConnectorIds = rememberStoredConnectorIds(config)

  const state = createStateContainer({
    namespaces: { eip155: disconnectedNamespace },
    connectors: listConnectors(config),
  }, params.slice)

  // While init() restores a connection, wagmi passes through states (disconnected
  // while waiting for the wallet, 'connecting') that must not reach the UI or
  // storage; init() syncs once at the end.
  let restoring = false
  let destroyed = false
  let initPromise: Promise<void> | undefined

  /** Mirrors wagmi's current connection into the eip155 state and storage. */
  function syncFromWagmi() {
    if (restoring || destroyed) return
    const previous = state.get().namespaces.eip155
    const next = namespaceFromWagmi(config)
    state.setNamespace('eip155', next)
    persist(previous, next)
  }

  function persist(previous: NamespaceConnection, next: NamespaceConnection) {
    if (next.status === 'connected' && next.connectorId && next.caipAddress) {
      const changed =
        previous.status !== 'connected' ||
        previous.connectorId !== next.connectorId ||
        previous.caipAddress !== next.caipAddress
      if (changed) stored.markConnected('eip155', { connectorId: next.connectorId, caipAddress: next.caipAddress })
    } else if (next.status === 'disconnected' && previous.status !== 'disconnected') {
      // Covers wallet-side disconnects (the wallet's 'disconnect' event or an empty accountsChanged).
      stored.markDisconnected('eip155')
    }
  }

  function refreshConnectors() {
    if (destroyed) return
    state.setConnectors(listConnectors(config))
    // An announcement can carry the icon/name of the connected wallet.
    syncFromWagmi()
  }

  const unsubscribers: Array<() => void> = [
    watchConnection(config, { onChange: syncFromWagmi }),
    watchConnectors(config, { onChange: refreshConnectors }),
  ]
  const mipd = config._internal.mipd
  if (mipd) {
    const unsubscribe = mipd.subscribe(() => {
      addAnnouncedConnectors(config)
      refreshConnectors()
    })
    unsubscribers.push(() => void unsubscribe())
  }

  // The native balance's chunk, fetched while a connection is made or restored so its first read need not wait for it.
  const loadBalance = async () => (await loadLazy()).balance()
  const prefetchBalance = () => void loadBalance().catch(() => undefined)

  /**
   * Startup restore (spec §4). Runs its synchronous part at once, so the
   * namespace reads 'reconnecting' (with the cached address) from the moment
   * init() is called and the UI never flashes "Connect" for a connected user.
   */
  function restore(): Promise<void> {
    const status = stored.readStatus('eip155')
    const connectorId = stored.readConnectorId('eip155')
    if (status !== 'connected' || !connectorId || !enableReconnect) {
      // Spec §4: a stored disconnected status clears the address cache. With
      // reconnect off, a stored connection is stale in the same way.
      if (status === 'connected') stored.markDisconnected('eip155')
      stored.clearCachedCaipAddress('eip155')
      return settleWithoutRestore()
    }

    restoring = true
    prefetchBalance()
    const cachedCaipAddress = stored.readCachedCaipAddress('eip155')
    const cached = parseEip155CaipAddress(cachedCaipAddress)
    const known = findConnector(config, connectorId)
    state.setNamespace('eip155', {
      status: 'reconnecting',
      address: cached?.address,
      caipAddress: cached ? cachedCaipAddress : undefined,
      chainId: cached?.chainId,
      connectorId,
      wallet: known ? toWalletInfo(config, known) : undefined,
    })
    return finishRestore(connectorId)
  }

  async function finishRestore(connectorId: string) {
    try {
      await reconnectStored(connectorId)
    } finally {
      restoring = false
    }
    if (destroyed) return
    if (getConnection(config).status === 'connected') {
      // wagmi makes the first wallet it restores current; the stored active one is current again once it is back.
      const active = [...config.state.connections.values()].find((c) => c.connector.id === connectorId)
      if (active) makeCurrent(config, active.connector.uid)
      syncFromWagmi()
      return
    }
    // Wallet gone, locked or no longer authorising the site: forget the connection.
    stored.markDisconnected('eip155')
    dropStaleConnections(config)
    state.setNamespace('eip155', disconnectedNamespace)
  }

  async function settleWithoutRestore() {
    await hydrateWagmi(config)
    addAnnouncedConnectors(config)
    dropStaleConnections(config)
    refreshConnectors()
  }

  async function reconnectStored(connectorId: string) {
    await hydrateWagmi(config)
    // The other wallets connected beside the active one: wagmi's storage keeps every connection's connector id.
    const others = storedConnectorIds().filter((id) => id !== connectorId)
    addAnnouncedConnectors(config)
    refreshConnectors()
    // The app's own wagmi setup may already have restored (or be restoring) it, and an injected wallet's EIP-1193
    // 'connect' event makes wagmi connect that one wallet by itself.
    await waitForWagmiSettled(config, reconnectTimeoutMs)
    const wanted = [connectorId, ...others]
    if (getConnection(config).status === 'connected') {
      const live = liveConnectorIds(config)
      if (wanted.every((id) => live.includes(id))) return
    }

    // Each wallet announces itself on its own; they are waited for together, so the wait stays one timeout long.
    const found = await Promise.all(wanted.map((id) => waitForConnector(config, id, announcementTimeoutMs)))
    const connectors = found.filter((c) => c !== undefined)
    if (!found[0] || destroyed) return
    // wagmi reconnects with `isReconnecting: true`: injected wallets are asked
    // for `eth_accounts` only, never `eth_requestAccounts`, so nothing prompts.
    // A wallet that no longer authorises the site is skipped; the others stay.
    // wagmi rebuilds its list of connections from those it reconnects, so one
    // already connected is passed again rather than dropped.
    await wagmiReconnect(config, { connectors }).catch(() => [])
    await waitForWagmiSettled(config, reconnectTimeoutMs)
  }

  async function waitForInit() {
    if (initPromise) await initPromise
  }

  async function connect(connectorId: string, options: ConnectOptions = {}): Promise<NamespaceConnection> {
    await waitForInit()
    addAnnouncedConnectors(config)
    const connector = findConnector(config, connectorId)
    if (!connector) throw new LatchConnectError('unknown', `Connector not found: ${connectorId}`)

    const current = getConnection(config)
    if (current.status === 'connected' && current.connector.uid === connector.uid) {
      return state.get().namespaces.eip155
    }
    // Connecting a wallet that is already connected beside the active one makes it active, without a prompt.
    if (config.state.connections.has(connector.uid)) {
      makeCurrent(config, connector.uid)
      return state.get().namespaces.eip155
    }
    prefetchBalance()
    try {
      await wagmiConnect(config, { connector, chainId: options.chainId })
    } catch (error) {
      // wagmi has already put its status back (connected to the previous
      // connection, or disconnected); mirroring it restores the previous state.
      syncFromWagmi()
      throw toConnectError(error)
    }
    syncFromWagmi()
    return state.get().namespaces.eip155
  }

  async function disconnectEip155(): Promise<unknown> {
    const connection = config.state.connections.get(config.state.current ?? '')
    let failure: unknown
    if (connection) {
      try {
        await wagmiDisconnect(config, { connector: connection.connector })
      } catch (error) {
        failure = error
        // Spec §4: the connection is cleared even when the wallet fails.
        config.setState((x) => {
          const connections = new Map(x.connections)
          connections.delete(connection.connector.uid)
          const next = connections.values().next().value
          return next
            ? { ...x, connections, current: next.connector.uid }
            : { ...x, connections, current: null, status: 'disconnected' }
        })
      }
    }
    if (getConnection(config).status === 'connected') {
      // Another wagmi connection remains: switch to it (spec §4).
      syncFromWagmi()
    } else {
      stored.markDisconnected('eip155')
      state.setNamespace('eip155', disconnectedNamespace)
    }
    return failure
  }

  function namespaceConnectors(): NamespaceConnector<SupportedNamespace>[] {
    const { namespaces, connectors } = state.get()
    return supportedNamespaces.map((ns) => {
      const connectorId = namespaces[ns].connectorId
      return { namespace: ns, connectorId, connectorType: connectors.find((c) => c.id === connectorId)?.type }
    })
  }

  async function disconnect(namespace?: SupportedNamespace): Promise<void> {
    await waitForInit()
    // Spec §4: a WalletConnect (or embedded-wallet) session spans namespaces; ending it for one ends it for all.
    const targets = namespace ? namespacesToDisconnect(namespace, namespaceConnectors()) : supportedNamespaces
    const failures: unknown[] = []
    for (const target of targets) {
      // Only eip155 exists today; other namespaces add their branch here.
      if (target === 'eip155') {
        const failure = await disconnectEip155()
        if (failure !== undefined) failures.push(failure)
      }
    }
    const [first] = failures
    if (first !== undefined) throw new LatchDisconnectError(messageOf(first), { cause: first })
  }

  async function switchChain(chain: Chain): Promise<void> {
    await waitForInit()
    if (getConnection(config).status !== 'connected') {
      throw new LatchSwitchNetworkError('unknown', 'No ActiveCaipAddress found')
    }
    const explorers = Object.values(chain.blockExplorers ?? {}).map((x) => x.url)
    try {
      await wagmiSwitchChain(config, {
        chainId: chain.id,
        // wagmi derives these from config.chains too; passing them keeps an
        // app's own wagmi config (whose chain objects may be sparser) from
        // adding a chain without its name, currency or URLs.
        addEthereumChainParameter: {
          chainName: chain.name,
          nativeCurrency: chain.nativeCurrency,
          rpcUrls: chain.rpcUrls.default.http,
          ...(explorers.length ? { blockExplorerUrls: [...new Set(explorers)] } : {}),
        },
      })
    } catch (error) {
      throw toSwitchNetworkError(error)
    } finally {
      syncFromWagmi()
    }
  }

  return {
    getState: () => state.get(),
    subscribe: (listener) => state.subscribe(listener),
    init() {
      initPromise ??= restore().catch(() => {
        // restore() handles every expected failure; this is a last resort so
        // startup never leaves the namespace stuck in 'reconnecting'.
        restoring = false
        stored.markDisconnected('eip155')
        state.setNamespace('eip155', disconnectedNamespace)
      })
      return initPromise
    },
    connect,
    disconnect,
    switchChain,
    // viem's getBalance brings its eth_call path (multicall3), so the read is an on-demand chunk.
    getNativeBalance: async (balanceParams) => (await loadBalance()).getNativeBalance(config, balanceParams),
    getWagmiConfig: () => config,
    destroy() {
      if (destroyed) return
      destroyed = true
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe()
      state.clearListeners()
      // Discovery listens on window; a config we created is ours to stop.
      if (ownsConfig) config._internal.mipd?.destroy()
    },
  }
}
