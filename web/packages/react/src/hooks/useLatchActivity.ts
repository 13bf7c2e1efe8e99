import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { historyPageQueryOptions, networkCaipId, type ActivityGroup, type Transaction, type TransactionPage } from '@latchkit/core'
import type { QueryState } from '@tanstack/react-query'
import { useLatchInstance } from '../context'
import { useAccountModels } from './useAccountModels'
import { useAccountQueryClient } from './useAccountQueryClient'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchActivityReturnType = {
  /** Months of activity, newest first (spec §9), on the connected chain only, spam-only NFT transactions hidden. */
  groups: ActivityGroup[]
  isLoading: boolean
  /** No transaction to show (after loading). */
  isEmpty: boolean
  /** 'Failed to fetch transactions' (spec §8): the list is empty and the cursor cleared. */
  isError: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  fetchNextPage(): void
  refetch(): void
}

type PageState = QueryState<TransactionPage, Error> | undefined

/**
 * The connected account's history on the active network, a page at a time
 * with latchd's cursor (infinite scroll). Each page is its own TanStack Query
 * entry (key: the history key plus the cursor), cached 30 s and refreshed
 * after the visitor's own transactions; items repeated across pages (new
 * transactions shift the first page) are shown once.
 */
export function useLatchActivity(): UseLatchActivityReturnType {
  const latch = useLatchInstance()
  const client = useAccountQueryClient()
  const cache = client.getQueryCache()
  const { address, network } = useLatchSelector((s) => ({
    address: s.account.status === 'connected' ? s.account.address : undefined,
    network: s.activeNetwork,
  }))
  const caipNetworkId = networkCaipId(network)
  const pageOptions = useCallback((cursor: string) => historyPageQueryOptions(latch, { address, network, cursor }), [latch, address, network])
  const enabled = pageOptions('').enabled
  // Every page's key is the history key plus its cursor; the first page's hash without its cursor identifies the list.
  const baseHash = client.defaultQueryOptions({ queryKey: pageOptions('').queryKey.slice(0, -1) }).queryHash
  // Cursors of the pages asked for; '' is the first page. A new account or network starts over.
  const [paging, setPaging] = useState<{ key: string; cursors: string[] }>({ key: baseHash, cursors: [''] })
  const cursors = paging.key === baseHash ? paging.cursors : ['']
  const hashes = cursors.map((c) => client.defaultQueryOptions({ queryKey: pageOptions(c).queryKey }).queryHash)

  const subscribe = useCallback(
    (onChange: () => void) =>
      cache.subscribe((event) => {
        if (event.query.queryHash.startsWith(baseHash.slice(0, -1))) onChange()
      }),
    [cache, baseHash],
  )
  // A stable snapshot: the page states, rebuilt only when one of them changed.
  const snapshot = useRef<PageState[]>([])
  const getSnapshot = (): PageState[] => {
    const next = hashes.map((h) => cache.get<TransactionPage, Error>(h)?.state)
    const prev = snapshot.current
    if (prev.length === next.length && prev.every((s, i) => s === next[i])) return prev
    snapshot.current = next
    return next
  }
  const states = useSyncExternalStore(subscribe, getSnapshot, getSnapshot)

  const fetchPage = useCallback(
    (cursor: string, staleTime?: number) => {
      const { queryKey, queryFn, staleTime: cached } = pageOptions(cursor)
      client.fetchQuery({ queryKey, queryFn, staleTime: staleTime ?? cached, retry: false }).catch(() => {
        // The error is in the page's state.
      })
    },
    [client, pageOptions],
  )

  // Fetch each page when first asked for, and again when invalidated (after the visitor's own transaction).
  const invalidation = states.map((s) => (s === undefined ? 'new' : s.isInvalidated ? 'invalid' : 'ok')).join(',')
  useEffect(() => {
    if (!enabled) return
    cursors.forEach((cursor, i) => {
      const s = states[i]
      if (s === undefined || s.isInvalidated) fetchPage(cursor)
    })
    // `invalidation` summarises `states` and `cursors`: the effect runs when a page appears or is invalidated.
  }, [enabled, invalidation, fetchPage])

  const models = useAccountModels()
  const isError = states.some((s) => s?.status === 'error')
  const last = states[states.length - 1]
  const next = last?.data?.next ?? null
  const isLoading = enabled && (states[0]?.data === undefined || !models) && !isError
  const isFetchingNextPage = states.length > 1 && last?.data === undefined && last?.status !== 'error'
  // `states` is a stable snapshot: it changes only when a page's state does.
  const groups = useMemo(() => {
    if (!models) return []
    const seen = new Set<string>()
    const items: Transaction[] = []
    for (const state of states) {
      for (const t of state?.data?.data ?? []) {
        if (seen.has(t.id)) continue
        seen.add(t.id)
        items.push(t)
      }
    }
    return models.groupActivity(items, { caipNetworkId })
  }, [caipNetworkId, states, models])

  const fetchNextPage = useCallback(() => {
    if (!next || cursors.includes(next)) return
    setPaging({ key: baseHash, cursors: [...cursors, next] })
  }, [next, cursors, baseHash])

  return {
    groups: isError ? [] : groups,
    isLoading,
    isEmpty: enabled && !isLoading && !isError && groups.length === 0 && !next,
    isError,
    hasNextPage: !isError && (Boolean(next) || isFetchingNextPage),
    isFetchingNextPage,
    fetchNextPage,
    // Failed (spec §8): start over from the first page.
    refetch: () => {
      setPaging({ key: baseHash, cursors: [''] })
      fetchPage('', 0)
    },
  }
}
