// Account data of @latchkit/core. Statically: the account-data service
// (balance-fetch state of the spec, identity cache, the visitor's-transaction
// signal), query keys and cache times, and the types. The client, formats and
// Activity model load on demand with loadAccountModule().
export {
  ACCOUNT_CACHE_MS,
  accountQueryKeys,
  BALANCE_RETRY_LOCK_MS,
  BALANCE_UNAVAILABLE,
  BalanceRetryLockedError,
  createAccountData,
  type AccountData,
  type AccountDataParameters,
  type AccountDataState,
  type SentTransaction,
} from './data'
export { loadAccountModule, type AccountModule } from './load'
export type { AccountClient, AccountClientOptions, GetBalancesParams, GetHistoryParams } from './client'
export type { ActivityGroup, ActivityItem } from './activity'
export type { FungiblePrice, Identity, TokenBalance, Transaction, TransactionPage, TransactionStatus, TransactionTransfer } from './types'
