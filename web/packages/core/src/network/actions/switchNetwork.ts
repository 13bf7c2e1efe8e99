import { loadNativeBalance } from '../../account/actions/loadNativeBalance'
import { adapterOfNetwork, networkCaipId } from '../../adapters/registry'
import { LatchSwitchNetworkError, toSwitchNetworkError } from '../../connection/errors'
import type { Latch } from '../../latch-types'
import { leaveNetworkViews } from './leaveNetworkViews'

/**
 * switchNetwork makes `chainId` the active network (spec §4): locally when
 * no wallet is connected, else by asking the wallet. A chain not configured
 * shows SWITCH_NETWORK_NOT_FOUND and rejects; a failed switch goes back one
 * view (from the views that start one), shows why and rejects with a
 * LatchSwitchNetworkError. On success the network views are left.
 */
export async function switchNetwork(latch: Latch, chainId: number): Promise<void> {
  const { network, alerts, events, toasts, modal, router } = latch._internal
  const target = network.find(chainId)
  if (!target) {
    alerts.show('SWITCH_NETWORK_NOT_FOUND')
    throw new LatchSwitchNetworkError('chain_not_configured', latch.t('network.notFound'))
  }
  events.sendEvent({ type: 'track', event: 'SWITCH_NETWORK', properties: { network: networkCaipId(target) } })
  // The target's own namespace is asked: switching between an EVM and a Solana network moves between their accounts.
  const client = latch._internal.clients.get(adapterOfNetwork(target).namespace)!
  const account = client.account()
  if (account.status === 'connected' && account.chainId !== target.id) {
    try {
      await client.switchNetwork(target)
    } catch (error) {
      const failure = toSwitchNetworkError(error)
      // Spec §4: a failed switch goes back one view (only from the views that start a switch).
      const view = router.store.getState().view
      if (modal.store.getState().open && (view === 'Networks' || view === 'UnsupportedChain')) router.goBack()
      toasts.showError(failure.kind === 'user_rejected' ? latch.t('network.switchDeclined') : failure.message)
      throw failure
    }
  }
  // After a wallet's switch its chainChanged has moved the active network already (then this changes nothing).
  const across = adapterOfNetwork(network.store.getState().activeNetwork) !== adapterOfNetwork(target)
  network.setActiveNetwork(target)
  // Into another namespace: the account shown is that namespace's, and so is the balance to read.
  if (across) void loadNativeBalance(latch)
  leaveNetworkViews(latch)
}
