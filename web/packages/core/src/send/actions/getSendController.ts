import type { Latch } from '../../latch-types'
import type { SendController } from '../controller'

/** getSendController is the instance's send form if loadSendController has created it, else undefined. */
export function getSendController(latch: Latch): SendController | undefined {
  return latch._internal.send.controller
}
