import type { Latch } from '../../latch-types'
import { ACTION_NOT_ALLOWED } from '../protocol'
import { UNKNOWN_METHOD_MESSAGE_DELAY_MS } from '../timings'

/**
 * methodNotAllowed answers the frame's refusal of an RPC method it does not
 * know (spec §4): the modal opens, the message shows 300 ms later (once the
 * modal is up), and the wallet's open requests are rejected — safe reads
 * excepted, as on every abort.
 */
export async function methodNotAllowed(latch: Latch): Promise<void> {
  const { modal, toasts, embedded } = latch._internal
  if (!modal.store.getState().open) await modal.open()
  setTimeout(() => toasts.showError(ACTION_NOT_ALLOWED), UNKNOWN_METHOD_MESSAGE_DELAY_MS)
  if (embedded) (await embedded.frame()).abort()
}
