// AppKit's React hooks over the Latch instance createAppKit made. They need no provider (as AppKit's): each
// reads the singleton's state through useSyncExternalStore. What Latch cannot do is refused with an
// AppKitCompatError naming it, never answered with a made-up value.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { formatUnits } from 'viem'
import { getBalance } from 'viem/actions'
import {
  activeNamespace,
  connectionsOf,
  disconnectConnection,
  getEmbeddedState,
  networkCaipId,
  switchConnection,
  watchConnectionList,
  watchEmbeddedState,
  type LatchNetwork,
  type LatchState,
  type ThemeMode,
  type WalletConnection,
} from '@latchkit/core'
import { useLatchWallet } from '@latchkit/react'
import { getAppKit, namespaceOf, type AppKitEvent, type AppKitOpenOptions, type AppKitState, type CaipNetwork } from './appkit'
import { AppKitCompatError, type AppKitThemeVariables } from './options'

function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** A slice of Latch's state, re-rendering only when it changes (shallowly). */
function useSelector<T>(hook: string, select: (state: LatchState) => T): T {
  const appKit = getAppKit(`"${hook}" hook`)
  const last = useRef<{ value: T } | null>(null)
  const getSnapshot = () => {
    const next = select(appKit.latch.getState())
    if (last.current && shallowEqual(last.current.value, next)) return last.current.value
    last.current = { value: next }
    return next
  }
  const subscribe = useCallback((onChange: () => void) => appKit.latch.subscribe(() => onChange()), [appKit])
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
}

/** One connection as useAppKitConnections lists it. */
export type Connection = { connectorId: string; name: string | undefined; icon: string | undefined; accounts: { address: string }[]; caipNetwork: CaipNetwork | undefined }

/** The configured network a connection is on (undefined when the wallet is on another). */
function connectionNetwork(networks: readonly LatchNetwork[], namespace: string, chainId: number | undefined): CaipNetwork | undefined {
  const network = networks.find((n) => n.id === chainId && namespaceOf(n) === namespace)
  return network && { ...network, caipNetworkId: networkCaipId(network), chainNamespace: namespace }
}

type ConnectionList = { namespace: string; list: readonly WalletConnection[]; connections: Connection[] }

/**
 * The wallets connected in `namespace` (default: the namespace of the account shown), the active one first, as
 * core lists them and in AppKit's shape. Re-renders when a wallet connects, disconnects, changes account or chain,
 * or the shown account moves to another namespace.
 */
function useConnectionList(hook: string, namespace?: string): ConnectionList {
  const { latch } = getAppKit(`"${hook}" hook`)
  const subscribe = useCallback(
    (onChange: () => void) => {
      const unwatch = watchConnectionList(latch._internal.connection, onChange)
      const unsubscribe = latch.subscribe(() => onChange())
      return () => {
        unwatch()
        unsubscribe()
      }
    },
    [latch],
  )
  // Rebuilt only when one of its sources changed, so the snapshot is stable between changes.
  const cache = useRef<{ sources: readonly unknown[]; value: ConnectionList } | null>(null)
  const read = () => {
    const ns = namespace ?? activeNamespace(latch)
    const { networks } = latch.getState()
    const sources = [ns, networks, latch._internal.connection.getState(), latch.getWagmiConfig().state]
    if (cache.current && sources.every((source, i) => Object.is(source, cache.current!.sources[i]))) return cache.current.value
    const list = connectionsOf(latch, ns)
    const connections = list.map((c) => ({
      connectorId: c.connectorId,
      name: c.name,
      icon: c.icon,
      accounts: c.accounts.map((address) => ({ address })),
      caipNetwork: connectionNetwork(networks, ns, c.chainId),
    }))
    cache.current = { sources, value: { namespace: ns, list, connections } }
    return cache.current.value
  }
  return useSyncExternalStore(subscribe, read, read)
}

export type UseAppKitReturn = {
  open: (options?: AppKitOpenOptions) => Promise<void>
  close: () => Promise<void>
}

/** Opens and closes the modal: open({ view, namespace }). */
export function useAppKit(): UseAppKitReturn {
  const appKit = getAppKit('"useAppKit" hook')
  return useMemo(() => ({ open: (options) => appKit.open(options), close: () => appKit.close() }), [appKit])
}

/** The e-mail wallet's user, when the connected account is that wallet. */
export type EmbeddedWalletInfo = {
  user: { email?: string | undefined; username?: string | undefined }
  authProvider: string
  accountType: string | undefined
  isSmartAccountDeployed: boolean | undefined
}

export type AccountType = { namespace: string; address: string; type: string }

export type UseAppKitAccountReturn = {
  allAccounts: AccountType[]
  caipAddress: string | undefined
  address: string | undefined
  isConnected: boolean
  embeddedWalletInfo: EmbeddedWalletInfo | undefined
  status: 'connected' | 'disconnected' | 'connecting' | 'reconnecting'
}

function useEmbedded() {
  const appKit = getAppKit('"useAppKitAccount" hook')
  const [state, setState] = useState(() => getEmbeddedState(appKit.latch))
  useEffect(() => watchEmbeddedState(appKit.latch, setState), [appKit])
  return state
}

/**
 * The connected account. With `namespace`, the account in that namespace: Latch shows one account, so another
 * namespace than its reads as disconnected. `allAccounts` lists every account of every wallet connected in the
 * account's namespace, the account shown first.
 */
export function useAppKitAccount(options?: { namespace?: string }): UseAppKitAccountReturn {
  const account = useSelector('useAppKitAccount', (s) => s.account)
  const embedded = useEmbedded()
  const namespace = account.caipAddress?.split(':')[0]
  const { list } = useConnectionList('useAppKitAccount', namespace)
  // An account in another namespace than the one asked for reads as disconnected (Latch shows one account).
  const other = options?.namespace !== undefined && namespace !== undefined && options.namespace !== namespace
  return useMemo(() => {
    const connected = !other && account.status === 'connected' && Boolean(account.address)
    const user = embedded?.user
    // The e-mail wallet's type for one of its accounts; an account of another wallet is an EOA.
    const typeOf = (address: string) => user?.accounts.find((a) => a.address.toLowerCase() === address.toLowerCase())?.type
    const type = connected ? typeOf(account.address!) : undefined
    // The e-mail wallet's user describes this account only when the account is one of that wallet's.
    const mine = user && type !== undefined
    // The shown account leads even while the list (wagmi's) has not caught up with it.
    const addresses = connected ? [...new Set([account.address!, ...list.flatMap((c) => c.accounts)])] : []
    return {
      allAccounts: addresses.map((address) => ({ namespace: namespace!, address, type: typeOf(address) ?? 'eoa' })),
      caipAddress: other ? undefined : account.caipAddress,
      address: other ? undefined : account.address,
      isConnected: connected,
      embeddedWalletInfo: mine
        ? {
            user: { email: user.email ?? undefined, username: user.userName ?? undefined },
            authProvider: user.email ? 'email' : (embedded?.social?.provider ?? 'email'),
            accountType: type,
            isSmartAccountDeployed: user.smartAccountDeployed,
          }
        : undefined,
      status: other ? 'disconnected' : account.status,
    }
  }, [account, embedded, namespace, other, list])
}

export type UseAppKitNetworkReturn = {
  caipNetwork: CaipNetwork
  caipNetworkId: string
  chainId: number
  /** AppKit lists the ids a WalletConnect wallet approved; Latch does not track them: always undefined. */
  approvedCaipNetworkIds: string[] | undefined
  supportsAllNetworks: boolean
  switchNetwork: (network: { id: number }) => Promise<void>
}

/** The active network and switchNetwork(network). */
export function useAppKitNetwork(): UseAppKitNetworkReturn {
  const appKit = getAppKit('"useAppKitNetwork" hook')
  const network = useSelector('useAppKitNetwork', (s) => s.activeNetwork)
  const switchNetwork = useCallback((next: { id: number }) => appKit.switchNetwork(next), [appKit])
  return useMemo(
    () => ({
      caipNetwork: { ...network, caipNetworkId: networkCaipId(network), chainNamespace: namespaceOf(network) },
      caipNetworkId: networkCaipId(network),
      chainId: network.id,
      approvedCaipNetworkIds: undefined,
      supportsAllNetworks: true,
      switchNetwork,
    }),
    [network, switchNetwork],
  )
}

/** The modal's state: open, loading, selectedNetworkId, activeChain, initialized, connectingWallet. */
export function useAppKitState(): AppKitState {
  const appKit = getAppKit('"useAppKitState" hook')
  const [initialized, setInitialized] = useState(() => appKit.getState().initialized)
  useEffect(() => {
    let live = true
    appKit.ready().then(
      () => live && setInitialized(true),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [appKit])
  const state = useSelector('useAppKitState', (s) => {
    const wallet = s.view === 'ConnectingExternal' ? s.viewData.wallet : undefined
    return {
      open: s.open,
      loading: s.loading,
      selectedNetworkId: networkCaipId(s.activeNetwork),
      activeChain: namespaceOf(s.activeNetwork),
      connectingId: wallet?.id,
      connectingName: wallet?.name,
    }
  })
  return useMemo(
    () => ({
      open: state.open,
      loading: state.loading,
      selectedNetworkId: state.selectedNetworkId,
      activeChain: state.activeChain,
      initialized,
      connectingWallet: state.connectingId ? { id: state.connectingId, name: state.connectingName ?? '' } : undefined,
    }),
    [state, initialized],
  )
}

export type UseAppKitThemeReturn = {
  themeMode: ThemeMode
  /** The variables as the app set them (`--w3m-*` keys kept). */
  themeVariables: AppKitThemeVariables
  setThemeMode: (mode: ThemeMode) => void
  setThemeVariables: (variables: AppKitThemeVariables) => void
}

/** Reads and sets the theme; setThemeVariables takes AppKit's `--w3m-*` keys. */
export function useAppKitTheme(): UseAppKitThemeReturn {
  const appKit = getAppKit('"useAppKitTheme" hook')
  const themeMode = useSelector('useAppKitTheme', (s) => s.themeMode)
  const themeVariables = useSyncExternalStore(appKit.subscribeTheme, appKit.getThemeVariables, appKit.getThemeVariables)
  return useMemo(
    () => ({
      themeMode,
      themeVariables,
      setThemeMode: (mode: ThemeMode) => appKit.setThemeMode(mode),
      setThemeVariables: (variables: AppKitThemeVariables) => appKit.setThemeVariables(variables),
    }),
    [appKit, themeMode, themeVariables],
  )
}

/** The latest modal event as AppKit shapes it ({ timestamp, data: { type, event, properties } }); before any, timestamp 0. */
export function useAppKitEvents(): AppKitEvent | { timestamp: number; data: { type: 'track'; event: undefined } } {
  const appKit = getAppKit('"useAppKitEvents" hook')
  const initial = useMemo(() => ({ timestamp: 0, data: { type: 'track' as const, event: undefined } }), [])
  const last = useRef<AppKitEvent | typeof initial>(initial)
  const subscribe = useCallback(
    (onChange: () => void) =>
      appKit.subscribeEvents((event) => {
        last.current = event
        onChange()
      }),
    [appKit],
  )
  const get = () => last.current
  return useSyncExternalStore(subscribe, get, get)
}

export type UseDisconnectReturn = { disconnect: (options?: { id?: string; namespace?: string }) => Promise<void> }

/**
 * disconnect() ends every connection; `namespace` ends them only when the account is in that namespace. `id` (a
 * connector id, as useAppKitConnections lists them) disconnects that one wallet and keeps the others (Latch's
 * disconnectConnection); an id no connected wallet has (in `namespace`, when given) is refused.
 */
export function useDisconnect(): UseDisconnectReturn {
  const appKit = getAppKit('"useDisconnect" hook')
  return useMemo(
    () => ({
      async disconnect(options) {
        if (options?.id === undefined) return appKit.disconnect(options?.namespace)
        const { latch } = appKit
        const namespaces = options.namespace !== undefined ? [options.namespace] : [...new Set(latch.getState().networks.map(namespaceOf))]
        if (!namespaces.some((ns) => connectionsOf(latch, ns).some((c) => c.connectorId === options.id))) {
          throw new AppKitCompatError(`disconnect({ id: "${options.id}" }): no wallet is connected through that connector${options.namespace !== undefined ? ` in ${options.namespace}` : ''}`)
        }
        await disconnectConnection(latch, options.id)
      },
    }),
    [appKit],
  )
}

export type UseWalletInfoReturn = { walletInfo: { name: string; icon?: string | undefined; rdns?: string | undefined } | undefined }

/** Name and icon of the connected wallet (of `namespace`, when given). */
export function useWalletInfo(namespace?: string): UseWalletInfoReturn {
  const { walletInfo, ns } = useSelector('useWalletInfo', (s) => ({ walletInfo: s.account.walletInfo, ns: s.account.caipAddress?.split(':')[0] }))
  return useMemo(() => ({ walletInfo: namespace !== undefined && namespace !== ns ? undefined : walletInfo }), [walletInfo, ns, namespace])
}

/** AppKit's connector types, as useAppKitProvider reports them. */
export type WalletProviderType = 'INJECTED' | 'WALLET_CONNECT' | 'AUTH' | 'ANNOUNCED' | 'EXTERNAL' | undefined

export type UseAppKitProviderReturn<T> = { walletProvider: T | undefined; walletProviderType: WalletProviderType }

function providerType(connectorType: string | undefined): WalletProviderType {
  if (connectorType === undefined) return undefined
  if (connectorType === 'injected') return 'INJECTED'
  if (connectorType === 'walletConnect') return 'WALLET_CONNECT'
  if (connectorType === 'AUTH') return 'AUTH' // the e-mail wallet's connector
  return 'EXTERNAL'
}

/** The connected wallet's raw provider (EIP-1193 for eip155); undefined when not connected in `namespace`. */
export function useAppKitProvider<T = unknown>(namespace: string): UseAppKitProviderReturn<T> {
  const appKit = getAppKit('"useAppKitProvider" hook')
  const { status, address, ns } = useSelector('useAppKitProvider', (s) => ({ status: s.account.status, address: s.account.address, ns: s.account.caipAddress?.split(':')[0] }))
  const [result, setResult] = useState<UseAppKitProviderReturn<T>>({ walletProvider: undefined, walletProviderType: undefined })
  useEffect(() => {
    if (status !== 'connected' || ns !== namespace) {
      setResult({ walletProvider: undefined, walletProviderType: undefined })
      return
    }
    let live = true
    const config = appKit.getWagmiConfig()
    const current = config.state.current ? config.state.connections.get(config.state.current) : undefined
    appKit.getWalletProvider().then(
      (provider) => live && setResult({ walletProvider: provider as T, walletProviderType: providerType(current?.connector.type) }),
      () => live && setResult({ walletProvider: undefined, walletProviderType: undefined }),
    )
    return () => {
      live = false
    }
  }, [appKit, status, address, ns, namespace])
  return result
}

export type FetchBalanceResult = {
  data: { balance: string; symbol: string } | undefined
  error: string | null
  isSuccess: boolean
  isError: boolean
}

/** fetchBalance(): the native balance of the connected account on the active network, read from its RPC. */
export function useAppKitBalance(): { fetchBalance: () => Promise<FetchBalanceResult> } {
  const appKit = getAppKit('"useAppKitBalance" hook')
  return useMemo(
    () => ({
      async fetchBalance() {
        const { account, activeNetwork } = appKit.latch.getState()
        const fail = (error: string): FetchBalanceResult => ({ data: undefined, error, isSuccess: false, isError: true })
        if (account.status !== 'connected' || !account.address) return fail('No account connected')
        if (namespaceOf(activeNetwork) !== 'eip155') return fail(`fetchBalance is not supported by Latch yet for ${namespaceOf(activeNetwork)} networks`)
        try {
          const client = appKit.getWagmiConfig().getClient({ chainId: activeNetwork.id })
          const value = await getBalance(client, { address: account.address as `0x${string}` })
          const { decimals, symbol } = activeNetwork.nativeCurrency
          return { data: { balance: formatUnits(value, decimals), symbol }, error: null, isSuccess: true, isError: false }
        } catch (error) {
          return fail(error instanceof Error ? error.message : String(error))
        }
      },
    }),
    [appKit],
  )
}

export type UseAppKitConnectionsReturn = { connections: Connection[]; recentConnections: Connection[] }

/**
 * AppKit's multi-wallet list: the wallets connected in `namespace` (default: the namespace of the account shown),
 * the active one first. `recentConnections` is always empty: Latch keeps no disconnected wallets (the connected
 * ones are the wallets it remembers and restores after a reload).
 */
export function useAppKitConnections(namespace?: string): UseAppKitConnectionsReturn {
  const { connections } = useConnectionList('useAppKitConnections', namespace)
  return useMemo(() => ({ connections, recentConnections: [] }), [connections])
}

/** What onSuccess of useAppKitConnection receives. */
export type AppKitConnectionChange = {
  address: string
  namespace: string
  hasSwitchedAccount: boolean
  hasSwitchedWallet: boolean
  hasDeletedWallet: boolean
}

export type UseAppKitConnectionOptions = {
  namespace?: string
  onSuccess?: (change: AppKitConnectionChange) => void
  onError?: (error: Error) => void
}

export type UseAppKitConnectionReturn = {
  /** The active wallet of the namespace; undefined when none is connected. */
  connection: Connection | undefined
  /** True while switchConnection runs. */
  isPending: boolean
  switchConnection: (params: { connection: Pick<Connection, 'connectorId'>; address?: string }) => Promise<void>
  deleteConnection: (params: { address: string; connectorId: string }) => Promise<void>
}

const sameAddress = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase()

/**
 * The active wallet of `namespace` (default: the namespace of the account shown), switching to another connected
 * wallet (Latch's switchConnection: no wallet prompt) and removing one. Latch keeps no disconnected wallets, so
 * deleteConnection disconnects the wallet (Latch's disconnectConnection). Latch does not pick an account inside a
 * wallet: switchConnection's `address` must be the account the wallet has selected (its first). Errors go to
 * onError; without onError the returned promise rejects.
 */
export function useAppKitConnection(options: UseAppKitConnectionOptions = {}): UseAppKitConnectionReturn {
  const { latch } = getAppKit('"useAppKitConnection" hook')
  const { namespace, list, connections } = useConnectionList('useAppKitConnection', options.namespace)
  const [isPending, setPending] = useState(false)
  const latest = useRef(options)
  latest.current = options
  const fail = useCallback((error: unknown) => {
    const reported = error instanceof Error ? error : new Error(String(error))
    if (!latest.current.onError) throw reported
    latest.current.onError(reported)
  }, [])
  // The connected wallet of `connectorId` holding `address` (when given); else an AppKitCompatError naming what is wrong.
  const find = useCallback(
    (call: string, connectorId: string, address: string | undefined) => {
      const found = connectionsOf(latch, namespace).find((c) => c.connectorId === connectorId)
      if (!found) throw new AppKitCompatError(`${call}: no wallet is connected through "${connectorId}" in ${namespace}`)
      if (address !== undefined && !found.accounts.some((a) => sameAddress(a, address))) {
        throw new AppKitCompatError(`${call}: ${address} is not an account of the wallet "${connectorId}"`)
      }
      return found
    },
    [latch, namespace],
  )
  const switchTo = useCallback<UseAppKitConnectionReturn['switchConnection']>(
    async ({ connection, address }) => {
      setPending(true)
      try {
        const target = find('switchConnection', connection.connectorId, address)
        if (address !== undefined && !sameAddress(target.accounts[0], address)) {
          throw new AppKitCompatError('switchConnection({ address }) to an account the wallet has not selected is not supported by Latch yet: select it in the wallet')
        }
        const before = connectionsOf(latch, namespace)[0]
        await switchConnection(latch, target.connectorId)
        latest.current.onSuccess?.({
          address: target.accounts[0]!,
          namespace,
          hasSwitchedAccount: !sameAddress(before?.accounts[0], target.accounts[0]),
          hasSwitchedWallet: before?.connectorId !== target.connectorId,
          hasDeletedWallet: false,
        })
      } catch (error) {
        fail(error)
      } finally {
        setPending(false)
      }
    },
    [latch, namespace, find, fail],
  )
  const remove = useCallback<UseAppKitConnectionReturn['deleteConnection']>(
    async ({ address, connectorId }) => {
      try {
        const target = find('deleteConnection', connectorId, address)
        await disconnectConnection(latch, connectorId)
        // Removing the active wallet makes another one active, when one is left.
        const next = target.isActive ? connectionsOf(latch, namespace)[0] : undefined
        latest.current.onSuccess?.({
          address,
          namespace,
          hasSwitchedAccount: next !== undefined && !sameAddress(next.accounts[0], target.accounts[0]),
          hasSwitchedWallet: next !== undefined,
          hasDeletedWallet: true,
        })
      } catch (error) {
        fail(error)
      }
    },
    [latch, namespace, find, fail],
  )
  const active = list.findIndex((c) => c.isActive)
  const connection = active === -1 ? undefined : connections[active]
  return useMemo(() => ({ connection, isPending, switchConnection: switchTo, deleteConnection: remove }), [connection, isPending, switchTo, remove])
}

/** The connected account as AppKit's wallet button reports it (a parsed CAIP-10 address). */
export type ParsedCaipAddress = { chainNamespace: string; chainId: string; address: string }

export type UseAppKitWalletReturn = {
  /** Connects one named wallet (`metamask`, `trust`, a registry id, `walletConnect`); Latch's useLatchWallet. */
  connect: (walletId: string) => Promise<void>
  isReady: boolean
  isPending: boolean
  isSuccess: boolean
  isError: boolean
  error: Error | undefined
  data: ParsedCaipAddress | undefined
}

const parseCaipAddress = (caip: string | undefined): ParsedCaipAddress | undefined => {
  const [chainNamespace, chainId, address] = caip?.split(':') ?? []
  return chainNamespace && chainId && address ? { chainNamespace, chainId, address } : undefined
}

/**
 * AppKit's wallet button hook over Latch's useLatchWallet: an installed wallet connects directly, any other through
 * WalletConnect with the modal on that wallet. Latch's wallet buttons take wallets, not e-mail or social logins: those
 * ids fail as unknown wallets (LatchUnknownWalletError in `error`). `namespace` is accepted for the signature and not used
 * (the wallet's connector decides).
 */
export function useAppKitWallet(options: { namespace?: string; onSuccess?: (data: ParsedCaipAddress | undefined) => void; onError?: (error: Error) => void } = {}): UseAppKitWalletReturn {
  const appKit = getAppKit('"useAppKitWallet" hook')
  const caipAddress = useSelector('useAppKitWallet', (s) => s.account.caipAddress)
  const latest = useRef(options)
  latest.current = options
  const wallet = useLatchWallet({
    latch: appKit.latch,
    onSuccess: () => latest.current.onSuccess?.(parseCaipAddress(appKit.latch.getState().account.caipAddress)),
    onError: (error) => latest.current.onError?.(error),
  })
  return useMemo(
    () => ({
      connect: wallet.connect,
      isReady: true,
      isPending: wallet.isPending,
      isSuccess: wallet.isSuccess,
      isError: wallet.isError,
      error: wallet.error,
      data: wallet.isSuccess ? parseCaipAddress(caipAddress) : undefined,
    }),
    [wallet, caipAddress],
  )
}
