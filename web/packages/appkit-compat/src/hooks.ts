// AppKit's React hooks over the Latch instance createAppKit made. They need no provider (as AppKit's): each
// reads the singleton's state through useSyncExternalStore. What Latch cannot do is refused with an
// AppKitCompatError naming it, never answered with a made-up value.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { formatUnits } from 'viem'
import { getBalance } from 'viem/actions'
import { getEmbeddedState, networkCaipId, watchEmbeddedState, type LatchState, type ThemeMode } from '@latchkit/core'
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
 * The connected account. With `namespace`, the account in that namespace: Latch holds one connection, so another
 * namespace reads as disconnected. `allAccounts` lists that one connection's account.
 */
export function useAppKitAccount(options?: { namespace?: string }): UseAppKitAccountReturn {
  const account = useSelector('useAppKitAccount', (s) => s.account)
  const embedded = useEmbedded()
  const namespace = account.caipAddress?.split(':')[0]
  // An account in another namespace than the one asked for reads as disconnected (Latch holds one connection).
  const other = options?.namespace !== undefined && namespace !== undefined && options.namespace !== namespace
  return useMemo(() => {
    const connected = !other && account.status === 'connected' && Boolean(account.address)
    const user = embedded?.user
    // The e-mail wallet's user describes this account only when the account is one of that wallet's.
    const mine = connected && user && user.accounts.some((a) => a.address.toLowerCase() === account.address?.toLowerCase())
    const type = mine ? user.accounts.find((a) => a.address.toLowerCase() === account.address?.toLowerCase())?.type : undefined
    return {
      allAccounts: connected && namespace ? [{ namespace, address: account.address!, type: type ?? 'eoa' }] : [],
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
  }, [account, embedded, namespace, other])
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
 * disconnect() ends the connection; `namespace` ends it only when the account is in that namespace. `id` (one of
 * several connections) is refused: Latch holds one connection.
 */
export function useDisconnect(): UseDisconnectReturn {
  const appKit = getAppKit('"useDisconnect" hook')
  return useMemo(
    () => ({
      async disconnect(options) {
        if (options?.id !== undefined) throw new AppKitCompatError('disconnect({ id }) is not supported by Latch yet: it holds one connection')
        await appKit.disconnect(options?.namespace)
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

/** One connection as useAppKitConnections lists it. */
export type Connection = { connectorId: string; name: string | undefined; icon: string | undefined; accounts: { address: string }[]; caipNetwork: CaipNetwork | undefined }

/**
 * AppKit's multi-wallet list. Latch holds one connection: `connections` is it (or empty); `recentConnections` is
 * empty; switchConnection and deleteConnection are refused.
 */
export function useAppKitConnections(namespace?: string): {
  connections: Connection[]
  recentConnections: Connection[]
  switchConnection: () => never
  deleteConnection: () => never
} {
  const appKit = getAppKit('"useAppKitConnections" hook')
  const { account, network } = useSelector('useAppKitConnections', (s) => ({ account: s.account, network: s.activeNetwork }))
  return useMemo(() => {
    const ns = account.caipAddress?.split(':')[0]
    const config = appKit.getWagmiConfig()
    const current = config.state.current ? config.state.connections.get(config.state.current) : undefined
    const connected = account.status === 'connected' && account.address && (namespace === undefined || namespace === ns)
    const refuse = (name: string) => () => {
      throw new AppKitCompatError(`${name} is not supported by Latch yet: it holds one connection`)
    }
    return {
      connections: connected
        ? [{ connectorId: current?.connector.id ?? 'unknown', name: account.walletInfo?.name, icon: account.walletInfo?.icon, accounts: [{ address: account.address! }], caipNetwork: { ...network, caipNetworkId: networkCaipId(network), chainNamespace: namespaceOf(network) } }]
        : [],
      recentConnections: [],
      switchConnection: refuse('switchConnection'),
      deleteConnection: refuse('deleteConnection'),
    }
  }, [appKit, account, network, namespace])
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
