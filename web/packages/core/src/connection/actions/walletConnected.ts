import type { Latch } from '../../latch-types'
import type { ListedWallet } from '../../wallets'
import { unsupportedChainRequired } from '../../network/actions/unsupportedChainRequired'

/** walletConnected runs after a wallet connected: remember it as recent, report it, and close (or show UnsupportedChain). */
export function walletConnected(latch: Latch, wallet: Pick<ListedWallet, 'id' | 'name'> | undefined, method: 'browser' | 'mobile' | 'qrcode'): void {
  const { slice, seenRegistry, recent, events, network, router, modal } = latch._internal
  const entry = wallet
    ? (slice.getState().registry.find((r) => r.id === wallet.id) ?? seenRegistry.get(wallet.id) ?? recent.get().find((r) => r.id === wallet.id))
    : undefined
  if (entry) slice.setState({ recent: recent.add(entry) })
  events.sendEvent({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method, name: wallet?.name ?? 'WalletConnect' } })
  // A wallet that connects on an unconfigured chain lands on UnsupportedChain instead of closing.
  if (unsupportedChainRequired(latch, network.store.getState().unsupportedChainId)) router.reset('UnsupportedChain')
  else modal.close()
}
