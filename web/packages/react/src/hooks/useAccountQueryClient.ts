import { useContext, useEffect } from 'react'
import { QueryClientContext, type QueryClient } from '@tanstack/react-query'
import { getQueryClient, watchAccountRefresh } from '@latchkit/core'
import { useLatchInstance } from '../context'

/**
 * The TanStack QueryClient account data is cached in: the app's (or
 * LatchProvider's) from context, else the Latch instance's own. While
 * mounted, balances and history refresh whenever the visitor sends a
 * transaction through the widget (spec §4).
 */
export function useAccountQueryClient(): QueryClient {
  const latch = useLatchInstance()
  const client = useContext(QueryClientContext) ?? getQueryClient(latch)
  useEffect(() => watchAccountRefresh(latch, client), [client, latch])
  return client
}
