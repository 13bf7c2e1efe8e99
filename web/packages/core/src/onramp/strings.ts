// The on-ramp's messages the visitor sees (English): what is wrong with the
// amount typed into Buy. They live in the on-ramp chunk rather than in core's
// catalogue.
export const onrampFlowStrings = {
  'onramp.amountRequired': 'An amount is required',
  'onramp.invalidDecimal': 'Number `{value}` is not a valid decimal number.',
  'onramp.amountOutOfRange': 'Amount must be between {min} and {max} {currency} for {method}',
  /** The payment method in onramp.amountOutOfRange. */
  'onramp.methodAch': 'ACH bank account',
} as const

/** A key of the on-ramp's messages. */
export type OnrampFlowStringKey = keyof typeof onrampFlowStrings
