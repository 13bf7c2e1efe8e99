// getPayResult without loading the pay module: a dapp may poll it before
// and after latch.pay ran. Imports nothing, so it stays out of the chunks.
import type { Latch } from '../latch-types'
import type { PayResult } from './types'

/** getPayResult is the last completed payment of latch.pay, or undefined. */
export function getPayResult(latch: Latch): PayResult | undefined {
  return latch._internal.root.getState().pay?.result
}
