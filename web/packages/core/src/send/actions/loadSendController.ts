import type { Latch } from '../../latch-types'
import { loadSendModule } from '../load'
import type { SendController } from '../types'

/**
 * loadSendController loads the send module (its own chunk) and returns the
 * instance's send form, created on first use and bound to its account,
 * toasts and router. Another account is another form.
 */
export async function loadSendController(latch: Latch): Promise<SendController> {
  return (await loadSendModule()).sendControllerOf(latch)
}
