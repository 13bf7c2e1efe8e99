import { activeClient } from '../../adapters/active'
import type { Latch } from '../../latch-types'

/** disconnect ends the connected namespace's session (reported as DISCONNECT_SUCCESS or _ERROR) and closes the modal. */
export async function disconnect(latch: Latch): Promise<void> {
  const internal = latch._internal
  try {
    await activeClient(internal).client.disconnect()
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_SUCCESS' })
  } catch (error) {
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_ERROR', properties: { message: error instanceof Error ? error.message : String(error) } })
  }
  internal.modal.close()
}
