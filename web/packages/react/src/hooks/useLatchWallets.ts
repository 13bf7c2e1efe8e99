import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { connectHeadless, loadConnectWallets, resetWalletConnect, type LatchWallet, type LatchWalletConnectState } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchWalletsReturnType = {
  /**
   * The wallets to offer: the Connect view's list (the WalletConnect QR entry, recent, installed, featured, custom,
   * recommended, in spec §9 order) followed by the registry pages fetched so far; while a search is set, its results.
   */
  wallets: LatchWallet[]
  /** The Connect list has loaded (the registry's featured and recommended wallets are in `wallets`). */
  isInitialized: boolean
  /** A registry page or search is being fetched. */
  isFetchingWallets: boolean
  /** The last registry page fetched (0: none yet); 40 wallets a page. */
  page: number
  /** Registry wallets matching (all of them, or the search's), as latchd counts them. */
  count: number
  /** Why the last fetch failed, if it did. */
  fetchError: string | undefined
  /** Fetches a page of the registry (default: the next one), or searches it when `query` is set (a blank query ends the search). */
  fetchWallets(options?: { page?: number; query?: string }): Promise<void>
  /** Fetches the next registry page (does nothing when every wallet is listed). */
  fetchNextPage(): Promise<void>
  /** Searches the registry (100 results); a blank query goes back to the list. */
  search(query: string): Promise<void>
  /**
   * Connects `wallet`: an installed one through its connector; any other through WalletConnect, its pairing URI in
   * `wcUri` for the app's own QR code or deep link, with the modal closed. Resolves once connected; rejects with a
   * LatchConnectError (a decline of an installed wallet, a failure, a reset).
   */
  connect(wallet: LatchWallet): Promise<void>
  /** The wallet `connect` is connecting, until it connected or failed. */
  connectingWallet: LatchWallet | undefined
  /** The WalletConnect pairing URI (`wc:…`) on offer; renewed before it lapses (spec §9). */
  wcUri: string | undefined
  /** No pairing URI yet: one is being created. */
  isFetchingWcUri: boolean
  /** The last WalletConnect attempt's failure (a decline is followed by a fresh URI). */
  wcError: LatchWalletConnectState['error']
  /** Abandons the headless pairing and clears `wcUri` and `wcError`. */
  resetWcUri(): void
  /** Forgets `connectingWallet`. */
  resetConnectingWallet(): void
}

type Listing = { wallets: LatchWallet[]; page: number; count: number; query: string }

const noListing: Listing = { wallets: [], page: 0, count: 0, query: '' }

/**
 * Headless connect: the wallet list, registry paging and search, and connecting (WalletConnect's URI and errors
 * included) for an app that draws its own connect UI; the modal never needs to open. AppKit's useAppKitWallets.
 */
export function useLatchWallets(): UseLatchWalletsReturnType {
  const latch = useLatchInstance()
  const listed = useLatchSelector((s) => s.wallets)
  const wc = useLatchSelector((s) => s.walletConnect)
  const [isInitialized, setInitialized] = useState(false)
  const [isFetchingWallets, setFetching] = useState(false)
  const [fetchError, setFetchError] = useState<string | undefined>(undefined)
  const [listing, setListing] = useState<Listing>(noListing)
  const [connectingWallet, setConnectingWallet] = useState<LatchWallet | undefined>(undefined)
  // The newest fetch wins: a slow page or search must not overwrite a later one.
  const seq = useRef(0)
  const current = useRef(listing)
  current.current = listing

  useEffect(() => {
    let live = true
    loadConnectWallets(latch).then(
      () => live && setInitialized(true),
      (error: unknown) => live && setFetchError(error instanceof Error ? error.message : String(error)),
    )
    return () => {
      live = false
    }
  }, [latch])

  const fetchWallets = useCallback(
    async (options: { page?: number; query?: string } = {}) => {
      const id = ++seq.current
      const query = options.query?.trim() ?? ''
      if (options.query !== undefined && !query) {
        setListing((l) => ({ ...l, query: '', wallets: l.query ? [] : l.wallets, page: l.query ? 0 : l.page }))
        return
      }
      const page = query ? 1 : (options.page ?? current.current.page + 1)
      setFetching(true)
      setFetchError(undefined)
      try {
        const result = await latch.fetchWallets(query ? { page, search: query } : { page })
        if (id !== seq.current) return
        setListing((l) => {
          if (query) return { wallets: result.wallets, page: 1, count: result.count, query }
          // Pages add up; a page fetched again replaces nothing, so keep the first of each id.
          const base = l.query ? [] : l.wallets
          const seen = new Set(base.map((w) => w.id))
          return { wallets: [...base, ...result.wallets.filter((w) => !seen.has(w.id))], page, count: result.count, query: '' }
        })
      } catch (error) {
        if (id === seq.current) setFetchError(error instanceof Error ? error.message : String(error))
      } finally {
        if (id === seq.current) setFetching(false)
      }
    },
    [latch],
  )

  const fetchNextPage = useCallback(async () => {
    const l = current.current
    if (l.query || (l.page > 0 && l.page * 40 >= l.count)) return
    await fetchWallets({ page: l.page + 1 })
  }, [fetchWallets])

  const search = useCallback((query: string) => fetchWallets({ query }), [fetchWallets])

  const connect = useCallback(
    async (wallet: LatchWallet) => {
      setConnectingWallet(wallet)
      try {
        await connectHeadless(latch, wallet)
      } finally {
        setConnectingWallet((w) => (w === wallet ? undefined : w))
      }
    },
    [latch],
  )

  const wallets = useMemo(() => {
    if (listing.query) return listing.wallets
    // The Connect list first; a registry page's wallet already listed there (recent, installed) is not repeated.
    const ids = new Set(listed.map((w) => w.id))
    const rdns = new Set(listed.flatMap((w) => (w.rdns ? [w.rdns] : [])))
    return [...listed, ...listing.wallets.filter((w) => !ids.has(w.id) && !(w.rdns && rdns.has(w.rdns)))]
  }, [listed, listing])

  return {
    wallets,
    isInitialized,
    isFetchingWallets,
    page: listing.page,
    count: listing.count,
    fetchError,
    fetchWallets,
    fetchNextPage,
    search,
    connect,
    connectingWallet,
    wcUri: wc?.uri,
    isFetchingWcUri: Boolean(wc?.pending && !wc.uri),
    wcError: wc?.error ?? null,
    resetWcUri: useCallback(() => resetWalletConnect(latch), [latch]),
    resetConnectingWallet: useCallback(() => setConnectingWallet(undefined), []),
  }
}
