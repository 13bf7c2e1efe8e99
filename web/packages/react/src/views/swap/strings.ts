// The swap view's own strings (English). They live in the view's lazy chunk
// rather than in core's catalogue, which is part of every page's first load.
import { useStrings } from '../../hooks/useT'

/** The swap view's strings; `{name}` placeholders are filled from params. */
export const swapStrings = {
  'swap.from': 'You pay',
  'swap.to': 'You receive',
  'swap.amount': 'Amount',
  'swap.balance': 'Balance: {amount} {symbol}',
  'swap.flip': 'Swap direction',
  'swap.quoting': 'Finding the best price…',
  'swap.rate': '1 {from} ≈ {rate} {to}',
  'swap.route': 'Route: {route}',
  'swap.impact': 'Price impact: {impact}%',
  'swap.impactWarning': 'This trade moves the price by {impact}%: you get noticeably less than the market price.',
  'swap.impactBlocked': 'Price impact above {max}%: swap a smaller amount.',
  'swap.fee': 'Network fee: up to {native} {symbol}{usd}',
  'swap.poolFee': 'Pool fee: 0.3% per hop',
  'swap.slippage': 'Slippage tolerance: {slippage}%',
  'swap.minimum': 'At least {amount} {symbol} after slippage',
  'swap.approveAndSwap': 'Approve {symbol} and swap',
  'swap.swap': 'Swap',
  'swap.approving': 'Approve {symbol} in your wallet…',
  'swap.swapping': 'Confirm the swap in your wallet…',
  'swap.success': 'Swapped {from} {fromSymbol} for {to} {toSymbol}',
  'swap.noTokens': 'No tokens to swap on this network',
  'swap.insufficient': 'Insufficient {symbol} balance',
} as const

/** A key of the swap view's strings. */
export type SwapStringKey = keyof typeof swapStrings

/** useSwapT returns the swap view's string lookup, filling `{name}` placeholders. */
export function useSwapT(): (key: SwapStringKey, params?: Record<string, string | number>) => string {
  return useStrings(swapStrings)
}
