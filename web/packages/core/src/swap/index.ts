// The swap module (spec §2 swaps panel, §3; api-shapes §3.4): latchd's
// convert client and the swap flow over it. A lazy chunk: loadSwapModule
// brings it.
export { createSwapClient, SwapRequestError } from './client'
export type { SwapClient, SwapQuote, SwapToken, SwapTransaction } from './client'
export {
  executeSwap,
  findSwapToken,
  getSwapAllowance,
  getSwapGasPrice,
  getSwapQuote,
  getSwapTokens,
  isNativeSwapToken,
  PRICE_IMPACT_BLOCK,
  PRICE_IMPACT_WARN,
  QUOTE_REFRESH_MS,
  swapAmount,
  SWAP_MESSAGES,
  SWAP_SLIPPAGE,
  SwapError,
  type SwapResult,
  type SwapStep,
} from './actions'
