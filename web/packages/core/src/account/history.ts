// The account's history on a network, a page at a time with latchd's cursor
// (infinite scroll), kept in a TanStack QueryClient: each page is its own
// query (the history key plus the cursor), cached 30 s, fetched when first
// asked for and again when invalidated (after the visitor's own transaction).
// Framework-free: a UI subscribes and reads snapshots.
import type { QueryClient, QueryState } from '@tanstack/query-core'
import type { Latch } from '../latch-types'
import { historyPageQueryOptions, type AccountQueryParameters } from './queries'
import type { Transaction, TransactionPage } from './types'

/** What the pages say now; the same object until one of them changes. */
export interface HistorySnapshot {
  /** Each asked-for page's query state (undefined before its first fetch). */
  readonly pages: readonly (QueryState<TransactionPage, Error> | undefined)[]
  /** Transactions of every page so far, each once (new transactions shift the first page). */
  readonly transactions: readonly Transaction[]
  /** An account is connected, so pages are fetched. */
  readonly enabled: boolean
  /** A page failed ('Failed to fetch transactions', spec §8). */
  readonly isError: boolean
  /** The cursor of the page after the last one, or null at the end. */
  readonly next: string | null
  readonly isFetchingNextPage: boolean
}

/** The history pages of one account on one network. */
export interface HistoryPages {
  /** Starts listening (and fetching what is missing); returns the function that stops. */
  subscribe(onChange: () => void): () => void
  getSnapshot(): HistorySnapshot
  /** Asks for the page after the last one, if there is one. */
  fetchNextPage(): void
  /** Starts over from the first page, fetched now whether fresh or not. */
  refetch(): void
}

/** createHistoryPages pages through the account's history on `network` in `client`. */
export function createHistoryPages(latch: Latch, client: QueryClient, params: AccountQueryParameters): HistoryPages {
  const cache = client.getQueryCache()
  const options = (cursor: string) => historyPageQueryOptions(latch, { ...params, cursor })
  const enabled = options('').enabled
  const hashOf = (cursor: string) => client.defaultQueryOptions({ queryKey: options(cursor).queryKey }).queryHash
  // Every page's hash starts like the history key's without its closing bracket.
  const prefix = client.defaultQueryOptions({ queryKey: options('').queryKey.slice(0, -1) }).queryHash.slice(0, -1)
  const listeners = new Set<() => void>()
  // Cursors of the pages asked for; '' is the first page.
  let cursors: string[] = ['']
  let snapshot: HistorySnapshot | undefined

  const fetchPage = (cursor: string, staleTime?: number) => {
    const { queryKey, queryFn, staleTime: cached } = options(cursor)
    client.fetchQuery({ queryKey, queryFn, staleTime: staleTime ?? cached, retry: false }).catch(() => {
      // The error is in the page's state.
    })
  }

  const read = (): HistorySnapshot => {
    const pages = cursors.map((c) => cache.get<TransactionPage, Error>(hashOf(c))?.state)
    if (snapshot && snapshot.pages.length === pages.length && snapshot.pages.every((s, i) => s === pages[i])) return snapshot
    const seen = new Set<string>()
    const transactions: Transaction[] = []
    for (const page of pages) {
      for (const t of page?.data?.data ?? []) {
        if (seen.has(t.id)) continue
        seen.add(t.id)
        transactions.push(t)
      }
    }
    const last = pages[pages.length - 1]
    snapshot = {
      pages,
      transactions,
      enabled,
      isError: pages.some((s) => s?.status === 'error'),
      next: last?.data?.next ?? null,
      isFetchingNextPage: pages.length > 1 && last?.data === undefined && last?.status !== 'error',
    }
    return snapshot
  }

  // A page is fetched when it is first asked for and when it becomes invalidated: only on those changes, so
  // a page that stays invalidated because its fetch failed is not fetched over and over.
  let seen = ''
  const fetchMissing = () => {
    if (!enabled) return
    const pages = read().pages
    const summary = pages.map((s, i) => `${cursors[i]}:${s === undefined ? 'new' : s.isInvalidated ? 'invalid' : 'ok'}`).join(',')
    if (summary === seen) return
    seen = summary
    pages.forEach((state, i) => {
      if (state === undefined || state.isInvalidated) fetchPage(cursors[i]!)
    })
  }

  const changed = () => {
    for (const listener of [...listeners]) listener()
  }

  return {
    subscribe(onChange) {
      listeners.add(onChange)
      const unsubscribe = cache.subscribe((event) => {
        if (!event.query.queryHash.startsWith(prefix)) return
        fetchMissing()
        onChange()
      })
      fetchMissing()
      return () => {
        listeners.delete(onChange)
        unsubscribe()
      }
    },
    getSnapshot: read,
    fetchNextPage() {
      const { next } = read()
      if (!next || cursors.includes(next)) return
      cursors = [...cursors, next]
      fetchMissing()
      changed()
    },
    refetch() {
      cursors = ['']
      fetchPage('', 0)
      changed()
    },
  }
}
