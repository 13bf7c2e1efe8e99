import type { Latch } from '../../latch-types'
import type { SendState } from '../types'

/** getSendState is the instance's send form state, or undefined until the send module has loaded (loadSendController). */
export function getSendState(latch: Latch): SendState | undefined {
  return latch._internal.root.getState().send
}
