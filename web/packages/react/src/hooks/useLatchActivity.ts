import { useMemo, useSyncExternalStore } from 'react'
import { createHistoryPages, networkCaipId, type ActivityGroup } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useAccountModels } from './useAccountModels'
import { useAccountQueryClient } from './useAccountQueryClient'
import { useLatchSelector } from './useLatchSelector'
import { useLatchFormats } from './useT'

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

/**
 * The connected account's history on the active network, a page at a time
 * with latchd's cursor (infinite scroll), over core's createHistoryPages:
 * cached 30 s and refreshed after the visitor's own transactions.
 */
export function useLatchActivity(): UseLatchActivityReturnType {
  const latch = useLatchInstance()
  const client = useAccountQueryClient()
  const { address, network } = useLatchSelector((s) => ({
    address: s.account.status === 'connected' ? s.account.address : undefined,
    network: s.activeNetwork,
  }))
  // A new account or network starts over from the first page.
  const pages = useMemo(() => createHistoryPages(latch, client, { address, network }), [latch, client, address, network])
  const history = useSyncExternalStore(pages.subscribe, pages.getSnapshot, pages.getSnapshot)
  const models = useAccountModels()
  const caipNetworkId = networkCaipId(network)
  // Titles ("Sent"), transfer quantities and month names in the active locale (English without one).
  const locale = useLatchSelector((s) => s.locale)
  const catalogue = useLatchSelector((s) => s.catalogue)
  const formats = useLatchFormats()
  const groups = useMemo(
    () => (models ? models.groupActivity([...history.transactions], { caipNetworkId, locale: { locale, catalogue, formats } }) : []),
    [models, history, caipNetworkId, locale, catalogue, formats],
  )
  const { enabled, isError, next, isFetchingNextPage } = history
  const isLoading = enabled && (history.pages[0]?.data === undefined || !models) && !isError
  return {
    groups: isError ? [] : groups,
    isLoading,
    isEmpty: enabled && !isLoading && !isError && groups.length === 0 && !next,
    isError,
    hasNextPage: !isError && (Boolean(next) || isFetchingNextPage),
    isFetchingNextPage,
    fetchNextPage: pages.fetchNextPage,
    // Failed (spec §8): start over from the first page.
    refetch: pages.refetch,
  }
}
