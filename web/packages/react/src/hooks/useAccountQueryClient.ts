import { useContext, useEffect } from 'react'
import { QueryClient, QueryClientContext } from '@tanstack/react-query'
import { accountQueryKeys, type Latch } from '@latchkit/core'
import { useLatchInstance } from '../context'

/** After the visitor's own transaction, history is fetched again this much later, once latchd has indexed the block. */
export const INDEXER_SETTLE_MS = 3_000

// A QueryClient per Latch instance for pages without a QueryClientProvider
// (LatchProvider with wagmi={false} and none of the app's own above it).
const fallbackClients = new WeakMap<Latch, QueryClient>()
// One "refresh after the visitor's own transaction" subscription per (latch, client).
const refreshers = new WeakMap<QueryClient, WeakMap<Latch, { count: number; stop: () => void }>>()

/**
 * The TanStack QueryClient account data is cached in: the app's (or
 * LatchProvider's) from context, else one owned by this Latch instance.
 * While mounted it also refreshes balances and history whenever the visitor
 * sends a transaction through the widget (spec §4).
 */
export function useAccountQueryClient(): QueryClient {
  const latch = useLatchInstance()
  const fromContext = useContext(QueryClientContext)
  let client = fromContext
  if (!client) {
    client = fallbackClients.get(latch)
    if (!client) {
      client = new QueryClient()
      fallbackClients.set(latch, client)
    }
  }
  useEffect(() => {
    let byLatch = refreshers.get(client)
    if (!byLatch) {
      byLatch = new WeakMap()
      refreshers.set(client, byLatch)
    }
    let entry = byLatch.get(latch)
    if (!entry) {
      const timers = new Set<ReturnType<typeof setTimeout>>()
      const refresh = () => void client.invalidateQueries({ queryKey: accountQueryKeys.all })
      const unsubscribe = latch.accountData.onTransaction(() => {
        refresh()
        // latchd's indexer records a block a moment after it is mined: ask history once more a little later.
        const timer = setTimeout(() => {
          timers.delete(timer)
          void client.invalidateQueries({ queryKey: [...accountQueryKeys.all, 'history'] })
        }, INDEXER_SETTLE_MS)
        timers.add(timer)
      })
      const stop = () => {
        unsubscribe()
        for (const timer of timers) clearTimeout(timer)
      }
      entry = { count: 0, stop }
      byLatch.set(latch, entry)
    }
    entry.count++
    return () => {
      entry.count--
      if (entry.count === 0) {
        entry.stop()
        byLatch.delete(latch)
      }
    }
  }, [client, latch])
  return client
}
