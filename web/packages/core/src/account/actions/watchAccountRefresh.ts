import type { QueryClient } from '@tanstack/query-core'
import type { Latch } from '../../latch-types'
import { accountQueryKeys } from '../data'

/** After the visitor's own transaction, history is fetched again this much later, once latchd has indexed the block. */
export const INDEXER_SETTLE_MS = 3_000

/**
 * watchAccountRefresh invalidates `client`'s account queries (balances,
 * history) whenever the visitor sends a transaction through this instance
 * (spec §4), and history once more after INDEXER_SETTLE_MS. Watchers of the
 * same client share one subscription; it stops when the last one stops.
 * Returns the function that stops watching.
 */
export function watchAccountRefresh(latch: Latch, client: QueryClient): () => void {
  const { refreshers } = latch._internal.queries
  let entry = refreshers.get(client)
  if (!entry) {
    const timers = new Set<ReturnType<typeof setTimeout>>()
    const unsubscribe = latch.accountData.onTransaction(() => {
      void client.invalidateQueries({ queryKey: accountQueryKeys.all })
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
    refreshers.set(client, entry)
  }
  const watched = entry
  watched.count++
  let stopped = false
  return () => {
    if (stopped) return
    stopped = true
    watched.count--
    if (watched.count === 0) {
      watched.stop()
      if (refreshers.get(client) === watched) refreshers.delete(client)
    }
  }
}
