// latch.pay's messages the visitor sees in the Pay view (English). Refusals
// of a malformed request and the rejections of latch.pay's promise are for
// the app's developer and stay English in pay.ts and state.ts.
export const payFlowStrings = {
  'pay.notConnected': 'Connect a wallet to pay',
  'pay.noToken': 'No {asset} on this network',
  'pay.cannotBuy': '{asset} on this network cannot be bought here',
  'pay.noPaymentMethod': 'No payment method to buy with',
  'pay.noQuote': 'No quote',
  'pay.buyOutOfRange': 'Amount must be between {min} and {max} {currency}',
} as const

/** A key of latch.pay's messages. */
export type PayFlowStringKey = keyof typeof payFlowStrings
