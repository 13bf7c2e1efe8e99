// Wallet lists of the Connect and AllWallets views: which wallets show, in
// which section and order (spec §9 connector order), recent wallets (spec §9:
// at most 2) and the paged/searchable registry (spec §9: 40 per page, search
// 100 entries after 300 ms).
import type { ApiClient, RegistryWallet } from './api'
import { CONNECTOR_TYPES, type ConnectorTypeOrder, type CustomWallet } from './options'
import { createStore, type Store } from './store'
import { debounce, globalTimers, type Timers } from './timers'
// Recent wallets are a module of their own; named here too, beside the lists they feed.
import { RECENT_WALLETS_LIMIT } from './recentWallets'
export { createRecentWallets, isRegistryWallet, RECENT_WALLETS_KEY, RECENT_WALLETS_LIMIT, type RecentWallets } from './recentWallets'

/** Registry page size of the AllWallets list (spec §9). */
export const WALLETS_PER_PAGE = 40
/** Registry entries fetched for a search (spec §9). */
export const SEARCH_ENTRIES = 100
/** Quiet time before a search is sent (spec §9). */
export const SEARCH_DEBOUNCE_MS = 300
/** Recommended wallets shown on the Connect view (spec §9). */
export const RECOMMENDED_WALLETS = 4

/** A wallet announced by the page through EIP-6963. */
export interface AnnouncedWallet {
  /** The connector id (the wagmi connector for this announcement). */
  readonly id: string
  readonly name: string
  /** Data URI from the announcement. */
  readonly icon: string
  readonly rdns: string
}

/** A wallet connector the app adds outside the registry (e.g. a vendor SDK). */
export interface ExternalWallet {
  readonly id: string
  readonly name: string
  readonly imageUrl?: string
}

/** One row of a wallet list. */
export interface ListedWallet {
  /** Registry id when known, else the connector or custom-wallet id. */
  readonly id: string
  readonly name: string
  /** The section the row belongs to. */
  readonly kind: ConnectorTypeOrder
  /** Announcement icon or custom image URL; registry images go through imageId. */
  readonly imageUrl?: string
  /** Registry image id (api.walletImageUrl). */
  readonly imageId?: string
  readonly rdns?: string
  /** The connector that drives this wallet in the page (announced/external wallets). */
  readonly connectorId?: string
  /** True for wallets announced by an installed extension. */
  readonly installed: boolean
  readonly mobileLink?: string
  readonly desktopLink?: string
  readonly webappLink?: string
  /** The registry entry this row came from or was matched with. */
  readonly registry?: RegistryWallet
}

/** Inputs of buildWalletList. */
export interface WalletListInput {
  readonly announced: readonly AnnouncedWallet[]
  /** Registry wallets fetched for the Connect view (featured + recommended pages). */
  readonly registry: readonly RegistryWallet[]
  /** Recent wallets, most recent first (RecentWallets.get()). */
  readonly recent: readonly RegistryWallet[]
  readonly external?: readonly ExternalWallet[]
  readonly customWallets?: readonly CustomWallet[]
  readonly featuredWalletIds?: readonly string[]
  readonly includeWalletIds?: readonly string[]
  readonly excludeWalletIds?: readonly string[]
  readonly connectorTypeOrder?: readonly ConnectorTypeOrder[]
  readonly isMobile: boolean
  /** Offer the WalletConnect QR row (hidden on mobile, where wallets are deep-linked). */
  readonly showWalletConnect: boolean
}

/** The WalletConnect QR row's id. */
export const WALLET_CONNECT_ID = 'walletConnect'

const present = (link: string | null | undefined): string | undefined => (link ? link : undefined)

/** hasMobileLink: on mobile only wallets that can be opened by a link show (spec §5, api-shapes §1.1). */
export function hasMobileLink(wallet: { readonly mobile_link?: string | null; readonly webapp_link?: string | null }): boolean {
  return Boolean(wallet.mobile_link || wallet.webapp_link)
}

/** filterWalletsForPlatform drops wallets without a mobile or web-app link on mobile. */
export function filterWalletsForPlatform<W extends { readonly mobile_link?: string | null; readonly webapp_link?: string | null }>(
  wallets: readonly W[],
  isMobile: boolean,
): W[] {
  return isMobile ? wallets.filter(hasMobileLink) : [...wallets]
}

function fromRegistry(wallet: RegistryWallet, kind: ConnectorTypeOrder): ListedWallet {
  return {
    id: wallet.id,
    name: wallet.name,
    kind,
    installed: false,
    ...(wallet.image_id ? { imageId: wallet.image_id } : wallet.image_url ? { imageUrl: wallet.image_url } : {}),
    ...(wallet.rdns ? { rdns: wallet.rdns } : {}),
    ...(present(wallet.mobile_link) ? { mobileLink: present(wallet.mobile_link) } : {}),
    ...(present(wallet.desktop_link) ? { desktopLink: present(wallet.desktop_link) } : {}),
    ...(present(wallet.webapp_link) ? { webappLink: present(wallet.webapp_link) } : {}),
    registry: wallet,
  }
}

/**
 * mergeAnnounced matches an EIP-6963 announcement with its registry entry by
 * rdns: the registry gives the id and links, the announcement the icon and
 * name the user sees in their browser.
 */
export function mergeAnnounced(announced: AnnouncedWallet, registry: readonly RegistryWallet[]): ListedWallet {
  const entry = registry.find((w) => w.rdns && w.rdns === announced.rdns)
  // An extension the registry does not know gets a namespaced id so it can never collide with a registry id.
  const base = entry ? fromRegistry(entry, 'injected') : { id: `announced:${announced.rdns}`, kind: 'injected' as const }
  return { ...base, name: announced.name, imageUrl: announced.icon, rdns: announced.rdns, connectorId: announced.id, installed: true }
}

/**
 * buildWalletList orders the Connect view's rows by connectorTypeOrder
 * (default spec §9: walletConnect, recent, injected, featured, custom,
 * external, recommended). Excluded wallets never show; installed wallets show
 * once, as installed; on mobile, registry wallets need a mobile or web-app link;
 * a wallet appears in the first section that lists it.
 */
export function buildWalletList(input: WalletListInput): ListedWallet[] {
  const order = input.connectorTypeOrder ?? CONNECTOR_TYPES
  const excludedIds = new Set(input.excludeWalletIds ?? [])
  const excludedEntries = [...input.registry, ...input.recent].filter((w) => excludedIds.has(w.id))
  const excludedRdns = new Set(excludedEntries.flatMap((w) => (w.rdns ? [w.rdns] : [])))
  const excludedNames = new Set(excludedEntries.map((w) => w.name.toLowerCase()))
  const isExcluded = (w: ListedWallet): boolean =>
    excludedIds.has(w.id) || (w.rdns !== undefined && excludedRdns.has(w.rdns)) || excludedNames.has(w.name.toLowerCase())
  const include = new Set(input.includeWalletIds ?? [])
  const included = (w: RegistryWallet): boolean => include.size === 0 || include.has(w.id)
  const registryRows = (wallets: readonly RegistryWallet[], kind: ConnectorTypeOrder): ListedWallet[] =>
    filterWalletsForPlatform(wallets.filter(included), input.isMobile).map((w) => fromRegistry(w, kind))

  const injected = input.announced.map((a) => mergeAnnounced(a, input.registry))
  const installedIds = new Set(injected.map((w) => w.id))
  const installedRdns = new Set(injected.flatMap((w) => (w.rdns ? [w.rdns] : [])))
  const notInstalled = (w: ListedWallet): boolean => !installedIds.has(w.id) && !(w.rdns !== undefined && installedRdns.has(w.rdns))

  const featuredIds = input.featuredWalletIds ?? []
  const featured = featuredIds.flatMap((id) => {
    const wallet = input.registry.find((w) => w.id === id)
    return wallet ? [wallet] : []
  })
  const custom = (input.customWallets ?? []).filter((w) => !input.isMobile || hasMobileLink(w))

  const sections: Record<ConnectorTypeOrder, ListedWallet[]> = {
    walletConnect: input.showWalletConnect && !input.isMobile ? [{ id: WALLET_CONNECT_ID, name: 'WalletConnect', kind: 'walletConnect', installed: false }] : [],
    recent: registryRows(input.recent.slice(0, RECENT_WALLETS_LIMIT), 'recent').filter(notInstalled),
    injected,
    featured: registryRows(featured, 'featured').filter(notInstalled),
    custom: custom
      .map((w) => ({
        id: w.id,
        name: w.name,
        kind: 'custom' as const,
        installed: false,
        ...(w.image_url ? { imageUrl: w.image_url } : {}),
        ...(w.mobile_link ? { mobileLink: w.mobile_link } : {}),
        ...(w.desktop_link ? { desktopLink: w.desktop_link } : {}),
        ...(w.webapp_link ? { webappLink: w.webapp_link } : {}),
      }))
      .filter(notInstalled),
    external: (input.external ?? []).map((w) => ({
      id: w.id,
      name: w.name,
      kind: 'external' as const,
      installed: false,
      connectorId: w.id,
      ...(w.imageUrl ? { imageUrl: w.imageUrl } : {}),
    })),
    recommended: registryRows(
      input.registry.filter((w) => !featuredIds.includes(w.id)),
      'recommended',
    ).filter(notInstalled),
  }

  const seen = new Set<string>()
  const rows: ListedWallet[] = []
  for (const kind of order) {
    let taken = 0
    for (const wallet of sections[kind]) {
      if (seen.has(wallet.id) || isExcluded(wallet)) continue
      if (kind === 'recommended' && taken >= RECOMMENDED_WALLETS) break
      seen.add(wallet.id)
      rows.push(wallet)
      taken++
    }
  }
  return rows
}

/** State of the AllWallets list. */
export interface AllWalletsState {
  /** Every page loaded so far, in order, without duplicates. */
  readonly wallets: readonly RegistryWallet[]
  /** Total matching on the server (the "All wallets (N)" label). */
  readonly count: number
  /** Last page loaded (0 = none). */
  readonly page: number
  readonly loading: boolean
  readonly error: string | undefined
  /** The search text as typed. */
  readonly query: string
  readonly searching: boolean
  /** Search results for `query` (empty when query is blank). */
  readonly results: readonly RegistryWallet[]
}

/** Dependencies of the AllWallets controller. */
export interface AllWalletsOptions {
  readonly api: Pick<ApiClient, 'getWallets'>
  readonly includeWalletIds?: readonly string[]
  readonly excludeWalletIds?: readonly string[]
  /** Shown above the list already, so left out of the pages (AppKit does the same). */
  readonly featuredWalletIds?: readonly string[]
  /** Requested CAIP-2 network ids. */
  readonly chains?: readonly string[]
  readonly isMobile: boolean
  readonly timers?: Timers
}

/** The AllWallets controller. */
export interface AllWalletsController {
  readonly store: Store<AllWalletsState>
  /** Loads the next page; does nothing while loading or when every wallet is loaded. */
  loadNextPage(): Promise<void>
  /** Whether more pages exist. */
  hasMore(): boolean
  /** Sets the search text; the request goes out after SEARCH_DEBOUNCE_MS of quiet. */
  search(query: string): void
  /** Runs a pending search now (tests, or an explicit "enter"). */
  flushSearch(): void
  /** Cancels a pending search. */
  dispose(): void
}

/** createAllWalletsController makes the paged, searchable registry list. */
export function createAllWalletsController(options: AllWalletsOptions): AllWalletsController {
  const store = createStore<AllWalletsState>({
    wallets: [],
    count: 0,
    page: 0,
    loading: false,
    error: undefined,
    query: '',
    searching: false,
    results: [],
  })
  const chains = options.chains && options.chains.length > 0 ? options.chains : undefined
  const include = options.includeWalletIds && options.includeWalletIds.length > 0 ? options.includeWalletIds : undefined
  let searchSeq = 0

  const hasMore = (): boolean => {
    const s = store.getState()
    return s.page === 0 || s.page * WALLETS_PER_PAGE < s.count
  }

  const runSearch = debounce(
    async (query: string) => {
      const seq = ++searchSeq
      store.setState({ searching: true, error: undefined })
      try {
        const { data } = await options.api.getWallets({
          page: 1,
          entries: SEARCH_ENTRIES,
          search: query,
          ...(include ? { include } : {}),
          ...(options.excludeWalletIds?.length ? { exclude: options.excludeWalletIds } : {}),
          ...(chains ? { chains } : {}),
        })
        // A slower, older search must not overwrite the newer one's results.
        if (seq === searchSeq) store.setState({ results: filterWalletsForPlatform(data, options.isMobile), searching: false })
      } catch (error) {
        if (seq === searchSeq) store.setState({ searching: false, error: error instanceof Error ? error.message : String(error) })
      }
    },
    SEARCH_DEBOUNCE_MS,
    options.timers ?? globalTimers,
  )

  return {
    store,
    hasMore,
    async loadNextPage() {
      if (store.getState().loading || !hasMore()) return
      const page = store.getState().page + 1
      store.setState({ loading: true, error: undefined })
      try {
        const exclude = [...(options.excludeWalletIds ?? []), ...(options.featuredWalletIds ?? [])]
        const { data, count } = await options.api.getWallets({
          page,
          entries: WALLETS_PER_PAGE,
          ...(include ? { include } : {}),
          ...(exclude.length ? { exclude } : {}),
          ...(chains ? { chains } : {}),
        })
        const known = new Set(store.getState().wallets.map((w) => w.id))
        const fresh = filterWalletsForPlatform(data, options.isMobile).filter((w) => !known.has(w.id))
        // count stays the server's, as AppKit does, so the label matches the registry.
        store.setState((s) => ({ wallets: [...s.wallets, ...fresh], count, page, loading: false }))
      } catch (error) {
        store.setState({ loading: false, error: error instanceof Error ? error.message : String(error) })
      }
    },
    search(query) {
      store.setState({ query })
      if (query.trim() === '') {
        runSearch.cancel()
        searchSeq++
        store.setState({ results: [], searching: false })
        return
      }
      runSearch(query.trim())
    },
    flushSearch: () => runSearch.flush(),
    dispose: () => runSearch.cancel(),
  }
}
