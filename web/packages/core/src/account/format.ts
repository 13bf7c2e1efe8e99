// Display formats of the account views (spec §9): token quantities with 3
// decimals, fiat with 2 decimals in en-US, totals. Quantities are formatted
// from their decimal text, exactly (no float rounding of large balances).
import { truncateDecimals } from '../connection/format'
import { formatDecimalFixed } from '../send/decimal'
import type { TokenBalance } from './types'

/** Fraction digits of a token quantity (spec §9 "fungible quantity 3 decimals"). */
export const QUANTITY_DECIMALS = 3
/** Fraction digits of a fiat amount (spec §9 "number format 2 decimals en-US"). */
export const FIAT_DECIMALS = 2
/** The fiat currency prices are asked in (spec §9 "Price currency usd"). */
export const PRICE_CURRENCY = 'usd'

/** "1234.5678" → "1,234.567": truncated to 3 decimals, en-US grouping (formatBalance's rule, so a balance reads the same everywhere). */
export function formatQuantity(numeric: string): string {
  return formatDecimalFixed(truncateDecimals(numeric.trim(), QUANTITY_DECIMALS), QUANTITY_DECIMALS)
}

const fiatFormats = new Map<string, Intl.NumberFormat>()

/** 1234.5 → "$1,234.50" (en-US, 2 decimals); a value that is not finite shows as 0. */
export function formatFiat(value: number, currency: string = PRICE_CURRENCY): string {
  const code = currency.toUpperCase()
  let format = fiatFormats.get(code)
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: FIAT_DECIMALS,
      maximumFractionDigits: FIAT_DECIMALS,
    })
    fiatFormats.set(code, format)
  }
  return format.format(Number.isFinite(value) ? value : 0)
}

/** The fiat value of a balance: its `value`, else quantity × price. */
export function balanceFiatValue(balance: Pick<TokenBalance, 'value' | 'price' | 'quantity'>): number {
  if (typeof balance.value === 'number' && Number.isFinite(balance.value)) return balance.value
  const quantity = Number(balance.quantity.numeric)
  return Number.isFinite(quantity) && Number.isFinite(balance.price) ? quantity * balance.price : 0
}

/** The sum of the balances' fiat values. */
export function totalFiatValue(balances: readonly Pick<TokenBalance, 'value' | 'price' | 'quantity'>[]): number {
  return balances.reduce((sum, b) => sum + balanceFiatValue(b), 0)
}

/** Whether a balance is the network's native currency (the route sends no address for it). */
export function isNativeBalance(balance: Pick<TokenBalance, 'address'>): boolean {
  return !balance.address
}

/** The plain contract address of a CAIP-10 token address (`eip155:1:0xabc` → `0xabc`); plain input is returned as is. */
export function tokenContractAddress(address: string): string {
  const parts = address.split(':')
  return parts.length === 3 ? parts[2]! : address
}

/**
 * Sorts balances for the Tokens tab: the native currency first, then by fiat
 * value (highest first), then by symbol.
 */
export function sortBalances<T extends Pick<TokenBalance, 'address' | 'value' | 'price' | 'quantity' | 'symbol'>>(balances: readonly T[]): T[] {
  return [...balances].sort((a, b) => {
    const native = Number(isNativeBalance(b)) - Number(isNativeBalance(a))
    if (native !== 0) return native
    const value = balanceFiatValue(b) - balanceFiatValue(a)
    if (value !== 0) return value
    return a.symbol.localeCompare(b.symbol)
  })
}
