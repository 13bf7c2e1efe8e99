// The Activity tab's model (spec §5, §9): which transactions show, how they
// group (by month and year, newest first), their dates (DD MMM), relative
// labels (sec, min, hr, d, mo, yr) and the sign of their amounts.
import { QUANTITY_DECIMALS } from './format'
import { formatDecimalFixed } from '../send/decimal'
import type { Transaction, TransactionTransfer } from './types'
import { relativeParts, type RelativeUnit } from '../i18n/relative'
import type { LocaleFormats } from '../i18n/intl'
import { lookup } from '../messages'
import { activityStrings, type ActivityStringKey } from './strings'

/**
 * The visitor's language for the Activity rows: the active locale's catalogue
 * and Intl formats (LatchState's `locale`, `catalogue`, `formats`). Without
 * them, or with English, rows keep the English text and spec §9's formats.
 */
export interface ActivityLocale {
  readonly locale?: string | undefined
  readonly catalogue?: Readonly<Record<string, string>> | undefined
  readonly formats?: LocaleFormats | undefined
}

/** Operation types whose amounts show with + (spec §9). */
export const PLUS_OPERATIONS: readonly string[] = ['receive', 'deposit', 'borrow', 'claim']
/** Operation types whose amounts show with − (spec §9). */
export const MINUS_OPERATIONS: readonly string[] = ['withdraw', 'repay', 'burn']

/** The sign an amount of this operation type shows with: '+', '-' or none. */
export function operationSign(operationType: string): '+' | '-' | '' {
  if (PLUS_OPERATIONS.includes(operationType)) return '+'
  if (MINUS_OPERATIONS.includes(operationType)) return '-'
  return ''
}

/** The title key of each operation type latchd reports. */
const operationKeys: Readonly<Record<string, ActivityStringKey>> = {
  approve: 'activity.approve',
  bought: 'activity.bought',
  borrow: 'activity.borrow',
  burn: 'activity.burn',
  cancel: 'activity.cancel',
  claim: 'activity.claim',
  deploy: 'activity.deploy',
  deposit: 'activity.deposit',
  execute: 'activity.execute',
  mint: 'activity.mint',
  receive: 'activity.receive',
  repay: 'activity.repay',
  send: 'activity.send',
  sell: 'activity.sell',
  stake: 'activity.stake',
  trade: 'activity.trade',
  unstake: 'activity.unstake',
  withdraw: 'activity.withdraw',
}

const statusKeys: Readonly<Record<string, ActivityStringKey>> = {
  confirmed: 'activity.statusConfirmed',
  failed: 'activity.statusFailed',
  pending: 'activity.statusPending',
}

const text = (key: ActivityStringKey, l?: ActivityLocale) => lookup(activityStrings, key, undefined, l?.catalogue, l?.locale)

/**
 * The title of a history item: "Sent", "Received", … in the visitor's
 * language; a type Latch does not know is shown capitalised, as latchd names it.
 */
export function operationTitle(operationType: string, l?: ActivityLocale): string {
  const key = operationKeys[operationType]
  if (key) return text(key, l)
  return operationType ? operationType[0]!.toUpperCase() + operationType.slice(1) : text('activity.transaction', l)
}

/** Whether every transfer of the transaction is a spam NFT (spec §5: such transactions are hidden). */
export function isSpamOnly(transaction: Pick<Transaction, 'transfers'>): boolean {
  const transfers = transaction.transfers ?? []
  return transfers.length > 0 && transfers.every((t) => t.nft_info?.flags.is_spam === true)
}

/**
 * The transactions the Activity tab shows (spec §5): only those on the
 * connected chain, without the ones made only of spam NFTs.
 */
export function visibleTransactions(transactions: readonly Transaction[], caipNetworkId: string): Transaction[] {
  return transactions.filter((t) => t.metadata.chain === caipNetworkId && !isSpamOnly(t))
}

/** One transfer line of an item: "+1.500 USDC", or an NFT's name; the quantity in the locale's format when given one. */
export function transferDescription(transfer: TransactionTransfer | undefined, sign: '+' | '-' | '' = '', formats?: LocaleFormats): string {
  if (!transfer) return ''
  if (transfer.nft_info) return transfer.nft_info.name || '-'
  if (transfer.fungible_info) {
    const numeric = transfer.quantity.numeric
    const quantity = formats ? formats.balance(numeric, QUANTITY_DECIMALS) : formatDecimalFixed(numeric, QUANTITY_DECIMALS)
    return `${sign}${[quantity, transfer.fungible_info.symbol ?? ''].join(' ').trim()}`
  }
  return ''
}

/** What one history row shows. */
export interface ActivityItem {
  readonly id: string
  readonly hash: string
  /** "Sent", "Received", …, in the language groupActivity was given. */
  readonly title: string
  readonly operationType: string
  readonly status: Transaction['metadata']['status']
  /** 'in', 'out' or 'self' of the first transfer. */
  readonly direction: TransactionTransfer['direction'] | undefined
  /** Amount lines, signed per spec §9 when there is one transfer. */
  readonly descriptions: readonly string[]
  /** Token icon or NFT preview URLs. */
  readonly images: readonly string[]
  /** DD MMM, e.g. "05 Jul". */
  readonly date: string
  /** e.g. "5 min", "2 hrs", "3 d". */
  readonly relative: string
  readonly minedAt: Date
  readonly sentFrom: string
  readonly sentTo: string
  /**
   * The other side: the first transfer's recipient when the account sent, its
   * sender when it received (latchd sends both), else the transaction's to/from.
   */
  readonly counterpart: string
}

/**
 * The row model of a transaction. One transfer shows signed ("+1.500 USDC"
 * for a receive); several show one line each, unsigned; none shows the
 * status, as AppKit does.
 */
export function activityItem(transaction: Transaction, now: Date = new Date(), l?: ActivityLocale): ActivityItem {
  const { metadata } = transaction
  const transfers = transaction.transfers ?? []
  const sign = operationSign(metadata.operationType)
  const minedAt = new Date(metadata.minedAt)
  const descriptions =
    transfers.length === 0
      ? [statusKeys[metadata.status] ? text(statusKeys[metadata.status]!, l) : metadata.status]
      : transfers.length === 1
        ? [transferDescription(transfers[0], sign, l?.formats)]
        : transfers.map((t) => transferDescription(t, '', l?.formats))
  const images = transfers
    .map((t) => (t.nft_info ? t.nft_info.content?.preview?.url : t.fungible_info?.icon?.url))
    .filter((u): u is string => typeof u === 'string' && u !== '')
  return {
    id: transaction.id,
    hash: metadata.hash,
    title: operationTitle(metadata.operationType, l),
    operationType: metadata.operationType,
    status: metadata.status,
    direction: transfers[0]?.direction,
    descriptions,
    images,
    date: formatActivityDate(minedAt),
    relative: relativeTimeLabel(minedAt, now),
    minedAt,
    sentFrom: metadata.sentFrom,
    sentTo: metadata.sentTo,
    counterpart:
      transfers[0]?.direction === 'in'
        ? transfers[0].sender || metadata.sentFrom
        : transfers[0]?.recipient || metadata.sentTo,
  }
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** "DD MMM" in the visitor's time zone (spec §9): "05 Jul". */
export function formatActivityDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  return `${String(date.getDate()).padStart(2, '0')} ${monthNames[date.getMonth()]!.slice(0, 3)}`
}

const englishUnits: Record<RelativeUnit, string> = { second: 'sec', minute: 'min', hour: 'hr', day: 'd', month: 'mo', year: 'yr' }

/**
 * The time since `date` with the units of spec §9 (AppKit's labels): "N sec",
 * "1 min", "N min", "1 hr", "N hrs", "1 d", "N d", "1 mo", "N mo", "1 yr",
 * "N yr", rounded by {@link relativeParts}.
 */
export function relativeTimeLabel(date: Date, now: Date = new Date()): string {
  const [count, unit] = relativeParts(date, now)
  return `${count} ${englishUnits[unit]}${unit === 'hour' && count !== 1 ? 's' : ''}`
}

/** The English title of a history group: the month, with the year unless it is `now`'s year ("July", "December 2025"). */
export function monthTitle(year: number, month: number, now: Date = new Date()): string {
  return year === now.getFullYear() ? monthNames[month]! : `${monthNames[month]} ${year}`
}

/** One month of activity. */
export interface ActivityGroup {
  /** `YYYY-MM`, stable across renders. */
  readonly key: string
  readonly year: number
  /** 0–11. */
  readonly month: number
  /** The month's name, with the year when it is not the current year ("July", "December 2025"); LocaleFormats.monthTitle when groupActivity was given a locale's formats. */
  readonly title: string
  readonly items: readonly ActivityItem[]
}

/**
 * Groups transactions by month and year (spec §9), newest month first and
 * newest first inside a month, in the visitor's time zone. Filters with
 * {@link visibleTransactions} first when `caipNetworkId` is given. With
 * `locale` (LatchState's locale, catalogue and formats), titles, statuses,
 * quantities and month titles are in the visitor's language.
 */
export function groupActivity(
  transactions: readonly Transaction[],
  options: { readonly caipNetworkId?: string; readonly now?: Date; readonly locale?: ActivityLocale } = {},
): ActivityGroup[] {
  const now = options.now ?? new Date()
  const shown = options.caipNetworkId ? visibleTransactions(transactions, options.caipNetworkId) : [...transactions]
  const items = shown.map((t) => activityItem(t, now, options.locale)).filter((i) => !Number.isNaN(i.minedAt.getTime()))
  items.sort((a, b) => b.minedAt.getTime() - a.minedAt.getTime())
  const groups = new Map<string, { year: number; month: number; items: ActivityItem[] }>()
  for (const item of items) {
    const year = item.minedAt.getFullYear()
    const month = item.minedAt.getMonth()
    const key = `${year}-${String(month + 1).padStart(2, '0')}`
    let group = groups.get(key)
    if (!group) {
      group = { year, month, items: [] }
      groups.set(key, group)
    }
    group.items.push(item)
  }
  return [...groups.entries()].map(([key, g]) => ({
    key,
    year: g.year,
    month: g.month,
    title: options.locale?.formats ? options.locale.formats.monthTitle(g.year, g.month, now) : monthTitle(g.year, g.month, now),
    items: g.items,
  }))
}
