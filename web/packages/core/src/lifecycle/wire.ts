import { loadNativeBalance } from '../account/actions/loadNativeBalance'
import { activeClient } from '../adapters/active'
import type { Latch } from '../latch-types'
import { unsupportedChainChanged } from '../network/actions/unsupportedChainChanged'
import type { StateInputs } from '../state'

/**
 * wire subscribes the instance to its own changes: the wallet's chain moves
 * the active network; a new account,
 * chain or status (and the visitor's own transaction) reads the balance
 * again; a change of unsupported chain may open UnsupportedChain. The
 * subscriptions end with destroy().
 */
export function wire(latch: Latch): void {
  const internal = latch._internal
  const { network, accountData, connection } = internal
  internal.cleanups.push(
    network.store.subscribe((next, prev) => {
      if (next.unsupportedChainId !== prev.unsupportedChainId) unsupportedChainChanged(latch, next.unsupportedChainId)
    }),
    // The visitor's own transactions move the native balance: read it again.
    accountData.onTransaction(() => void loadNativeBalance(latch)),
    connection.subscribe((next, prev) => {
      const { client } = activeClient(internal as StateInputs)
      const a = client.account(next)
      const b = client.account(prev)
      // The active network follows the wallet's chain (chainChanged) while connected.
      network.followWalletChain(a.status === 'connected' ? a.chainId : undefined)
      if (a.address !== b.address || a.chainId !== b.chainId || a.status !== b.status) void loadNativeBalance(latch)
    }),
  )
}
