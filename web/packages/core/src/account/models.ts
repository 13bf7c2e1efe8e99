// The account module loaded on demand (loadAccountModule): latchd's client
// with its response schemas, display formats and the Activity model. Only the
// Account tabs, Send and the account hooks need them, so a page pays for them
// once someone connects and opens the Account view, not on first load.
export { createAccountClient, HISTORY_NEEDS_ADDRESS } from './client'
export type { AccountClientOptions } from './client'
export {
  balanceFiatValue,
  FIAT_DECIMALS,
  formatFiat,
  formatQuantity,
  isNativeBalance,
  PRICE_CURRENCY,
  QUANTITY_DECIMALS,
  sortBalances,
  tokenContractAddress,
  totalFiatValue,
} from './format'
export {
  activityItem,
  formatActivityDate,
  groupActivity,
  isSpamOnly,
  MINUS_OPERATIONS,
  operationSign,
  operationTitle,
  PLUS_OPERATIONS,
  relativeTimeLabel,
  transferDescription,
  visibleTransactions,
} from './activity'
export type { ActivityGroup, ActivityItem, ActivityLocale } from './activity'
