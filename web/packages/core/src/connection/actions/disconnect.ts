import type { Latch } from '../../latch-types'

/** disconnect ends the connected namespaces' sessions (reported as DISCONNECT_SUCCESS or _ERROR) and closes the modal. */
export async function disconnect(latch: Latch): Promise<void> {
  const internal = latch._internal
  try {
    // The default namespace as before, and every other connected one: a wallet with EVM and Solana accounts leaves both.
    await Promise.all([...internal.clients.values()].filter((c, i) => !i || c.account().status !== 'disconnected').map((c) => c.disconnect()))
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_SUCCESS' })
  } catch (error) {
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_ERROR', properties: { message: error instanceof Error ? error.message : String(error) } })
  }
  internal.modal.close()
}
