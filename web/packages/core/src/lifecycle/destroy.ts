import type { Latch } from '../latch-types'

/** destroy stops everything the instance started: its subscriptions, WalletConnect, telemetry, wallet watching and the send form. */
export function destroy(latch: Latch): void {
  const internal = latch._internal
  for (const cleanup of internal.cleanups.splice(0)) cleanup()
  internal.walletConnect.destroy()
  void internal.telemetry.stop()
  internal.connection.destroy()
  internal.send.controller?.destroy()
  for (const refresher of internal.queries.refreshers.values()) refresher.stop()
  internal.queries.refreshers.clear()
}
