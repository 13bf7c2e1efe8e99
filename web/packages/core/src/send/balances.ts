// What the send form shows of the visitor's balances, in any namespace.
import { isNativeBalance } from '../account/format'
import type { TokenBalance } from '../account/types'

/** networkBalanceInUsd is the network's native balance in USD with 2 decimals, from the balance list. */
export function networkBalanceInUsd(balances: readonly TokenBalance[]): string | undefined {
  const native = balances.find((b) => isNativeBalance(b))
  if (!native) return undefined
  const value = typeof native.value === 'number' ? native.value : Number(native.quantity.numeric) * native.price
  return Number.isFinite(value) ? value.toFixed(2) : undefined
}
