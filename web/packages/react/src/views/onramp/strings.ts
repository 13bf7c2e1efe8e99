// The Buy and Pay views' own strings (English). They live in the views'
// lazy chunk rather than in core's catalogue, which every page loads first.
import { useStrings } from '../../hooks/useT'

export const onrampStrings = {
  'buy.asset': 'Buy',
  'buy.network': 'Network',
  'buy.amount': 'Amount',
  'buy.currency': 'Currency',
  'buy.method': 'Pay with',
  'buy.provider': 'Provider',
  'buy.limits': 'From {min} to {max} {currency}',
  'buy.quoting': 'Getting a quote…',
  'buy.youGet': 'You get {amount} {symbol}',
  'buy.fees': 'Fees {fees} {currency} · network {network} {currency}',
  'buy.submit': 'Buy {symbol}',
  'buy.opening': 'Opening the checkout…',
  'buy.pending': 'Finish the payment in the checkout window…',
  'buy.processing': 'Payment received; sending the {symbol}…',
  'buy.completed': '{amount} {symbol} bought',
  'buy.fallback': 'Showing the built-in options: the on-ramp did not answer',
  'buy.noProvider': 'No on-ramp provider is available',
  'buy.connect': 'Connect a wallet to buy crypto',
  'method.card': 'Card',
  'method.ach_bank_account': 'ACH bank account',
  'pay.summary': 'Pay {amount} {asset}',
  'pay.to': 'To {recipient}',
  'pay.network': 'On {network}',
  'pay.balance': 'Your balance: {balance} {asset}',
  'pay.checking': 'Checking your balance…',
  'pay.missing': 'You need {missing} {asset} more',
  'pay.buy': 'Buy {asset}',
  'pay.buying': 'Buying {asset}…',
  'pay.submit': 'Pay',
  'pay.paying': 'Confirm in your wallet…',
  'pay.success': 'Paid',
  'pay.cancel': 'Cancel',
  'pay.connect': 'Connect a wallet to pay',
  'pay.connectButton': 'Connect wallet',
} as const

export type OnrampStringKey = keyof typeof onrampStrings

/** useOnrampT returns the views' string lookup, filling `{name}` placeholders. */
export function useOnrampT(): (key: OnrampStringKey, params?: Record<string, string | number>) => string {
  return useStrings(onrampStrings)
}
