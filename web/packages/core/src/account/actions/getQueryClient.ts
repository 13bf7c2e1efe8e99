import { QueryClient } from '@tanstack/query-core'
import type { Latch } from '../../latch-types'

/** getQueryClient is the TanStack QueryClient this instance caches server data in when the app provides none (made once). */
export function getQueryClient(latch: Latch): QueryClient {
  const queries = latch._internal.queries
  queries.client ??= new QueryClient()
  return queries.client
}
