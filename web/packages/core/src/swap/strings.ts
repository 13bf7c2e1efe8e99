// The swap flow's messages the visitor sees (English; spec §8 verbatim where
// it has them). They live in the swap chunk rather than in core's catalogue.
export const swapFlowStrings = {
  'swap.networkNotSupported': 'Network not supported for Swaps',
  'swap.enterAmount': 'Enter an amount',
  'swap.reverted': 'Swap failed: the price moved beyond the slippage tolerance, or the wallet rejected the swap',
  'swap.approveReverted': 'Approval failed on chain',
} as const

/** A key of the swap flow's messages. */
export type SwapFlowStringKey = keyof typeof swapFlowStrings
