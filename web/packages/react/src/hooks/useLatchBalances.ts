import { useMemo, useSyncExternalStore } from 'react'
import { balancesQueryOptions, type TokenBalance } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useAccountModels } from './useAccountModels'
import { useAccountQueryClient } from './useAccountQueryClient'
import { useCachedQuery } from './useCachedQuery'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchBalancesReturnType = {
  /** Balances of the connected account on the active network: native first, then by value. */
  balances: TokenBalance[] | undefined
  /** Sum of the balances' USD values. */
  totalValue: number | undefined
  /** A fetch is running (spec §4 balanceLoading). */
  balanceLoading: boolean
  /** The first fetch has not answered yet. */
  isLoading: boolean
  /** The last fetch failed (the 'Token Balance Unavailable' toast has been shown; retries wait 30 s). */
  error: Error | null
  refetch(): void
}

/**
 * Token balances of the connected account on the active network, from
 * latchd's balance route through TanStack Query (cached 30 s, spec §9), and
 * refreshed after the visitor's own transactions.
 */
export function useLatchBalances(): UseLatchBalancesReturnType {
  const latch = useLatchInstance()
  const client = useAccountQueryClient()
  const { address, network } = useLatchSelector((s) => ({
    address: s.account.status === 'connected' ? s.account.address : undefined,
    network: s.activeNetwork,
  }))
  const query = useCachedQuery(client, balancesQueryOptions(latch, { address, network }))
  const balanceLoading = useSyncExternalStore(
    (onChange) => latch.accountData.store.subscribe(() => onChange()),
    () => latch.accountData.store.getState().balanceLoading,
    () => false,
  )
  const models = useAccountModels()
  const balances = useMemo(() => (query.data && models ? models.sortBalances(query.data) : undefined), [query.data, models])
  return {
    balances,
    totalValue: balances && models ? models.totalFiatValue(balances) : undefined,
    balanceLoading,
    isLoading: query.isLoading || (query.data !== undefined && !models),
    error: query.error,
    refetch: query.refetch,
  }
}
