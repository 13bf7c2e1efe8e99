// TanStack Query options for the account data, built from the instance's
// account service: the React hooks (or any other UI) pass them to a QueryClient.
import { networkCaipId } from '../adapters/registry'
import type { LatchNetwork } from '../adapters/types'
import type { Latch } from '../latch-types'
import { ACCOUNT_CACHE_MS, accountQueryKeys } from './data'
import type { TokenBalance, TransactionPage } from './types'

/** The options of one account query: key, fetch, whether it may run and how long an answer is fresh. */
export interface AccountQueryOptions<T> {
  readonly queryKey: readonly unknown[]
  readonly queryFn: (context: { signal: AbortSignal }) => Promise<T>
  readonly enabled: boolean
  readonly staleTime: number
}

/** Which account and network a query is about; `address` undefined while disconnected. */
export interface AccountQueryParameters {
  readonly address: string | undefined
  readonly network: LatchNetwork
}

/** balancesQueryOptions: the account's token balances on a network from latchd (cached 30 s, spec §9), with forced re-reads after a send. */
export function balancesQueryOptions(latch: Latch, { address, network }: AccountQueryParameters): AccountQueryOptions<TokenBalance[]> {
  const caipNetworkId = networkCaipId(network)
  return {
    queryKey: accountQueryKeys.balances(address ?? '', caipNetworkId),
    queryFn: ({ signal }) =>
      latch.accountData.fetchBalances(
        { address: address ?? '', caipNetworkId, forceUpdate: latch.accountData.takeForceUpdate(caipNetworkId) },
        { signal },
      ),
    enabled: Boolean(address),
    staleTime: ACCOUNT_CACHE_MS.portfolio,
  }
}

/** historyPageQueryOptions: one page of the account's history on a network (`cursor` '' is the first), cached 30 s. */
export function historyPageQueryOptions(
  latch: Latch,
  { address, network, cursor }: AccountQueryParameters & { readonly cursor: string },
): AccountQueryOptions<TransactionPage> {
  const caipNetworkId = networkCaipId(network)
  return {
    queryKey: [...accountQueryKeys.history(address ?? '', caipNetworkId), cursor],
    queryFn: ({ signal }) => latch.accountData.fetchHistory({ address: address ?? '', caipNetworkId, cursor: cursor || undefined }, { signal }),
    enabled: Boolean(address),
    staleTime: ACCOUNT_CACHE_MS.portfolio,
  }
}
