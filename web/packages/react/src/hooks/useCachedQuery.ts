import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react'
import type { QueryClient, QueryKey, QueryState } from '@tanstack/react-query'

/** What useCachedQuery reads. */
export type CachedQueryOptions<T> = {
  queryKey: QueryKey
  queryFn: (context: { signal: AbortSignal }) => Promise<T>
  enabled: boolean
  /** How long an answer counts as fresh (the spec's cache time). */
  staleTime: number
}

/** A query's state as the views need it. */
export type CachedQueryResult<T> = {
  data: T | undefined
  error: Error | null
  /** Enabled, no answer yet, no error. */
  isLoading: boolean
  isFetching: boolean
  /** Fetches again now, fresh or not. */
  refetch(): void
}

/**
 * Reads one TanStack Query entry straight from the QueryClient's cache:
 * fetchQuery (deduplicated, fresh for `staleTime`, no retry: the account
 * service has its own retry lock) and a subscription to that entry. It
 * fetches again when the entry is invalidated (after the visitor's own
 * transaction). This is the part of useQuery the account views use; going
 * without QueryObserver keeps ~2 KiB gzip of react-query out of the page's
 * first load, where the app's bundler would otherwise hoist it.
 */
export function useCachedQuery<T>(client: QueryClient, options: CachedQueryOptions<T>): CachedQueryResult<T> {
  const cache = client.getQueryCache()
  const hash = client.defaultQueryOptions({ queryKey: options.queryKey }).queryHash
  const latest = useRef(options)
  latest.current = options

  const subscribe = useCallback(
    (onChange: () => void) =>
      cache.subscribe((event) => {
        if (event.query.queryHash === hash) onChange()
      }),
    [cache, hash],
  )
  const getState = (): QueryState<T, Error> | undefined => cache.get<T, Error>(hash)?.state
  const state = useSyncExternalStore(subscribe, getState, getState)

  const fetch = useCallback(
    (staleTime?: number) => {
      const { queryKey, queryFn } = latest.current
      client
        .fetchQuery({ queryKey, queryFn, staleTime: staleTime ?? latest.current.staleTime, retry: false })
        .catch(() => {
          // The error is in the entry's state.
        })
    },
    [client],
  )

  const invalidated = state?.isInvalidated ?? false
  const { enabled } = options
  useEffect(() => {
    if (enabled) fetch()
  }, [enabled, hash, invalidated, fetch])

  return {
    data: state?.data,
    error: state?.error ?? null,
    isLoading: enabled && state?.data === undefined && state?.status !== 'error',
    isFetching: state?.fetchStatus === 'fetching',
    refetch: () => fetch(0),
  }
}
