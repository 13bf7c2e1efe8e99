import { adapterOfNetwork } from '../../adapters/registry'
import type { Latch, LatchWallet } from '../../latch-types'
import { fromLatchWallet } from '../latchWallet'
import { walletConnected } from './walletConnected'

/**
 * connectWallet connects a wallet the visitor picked: through WalletConnect
 * when no connector on the page drives it (QR code or deep link), else on
 * ConnectingExternal with its connector, asking for the network picked
 * before connecting (as AppKit does). A failure is kept in connectError.
 */
export async function connectWallet(latch: Latch, wallet: LatchWallet): Promise<void> {
  const internal = latch._internal
  const { router, walletConnect, slice, events } = internal
  slice.setState({ connectError: null })
  if (walletConnect.handles(wallet)) {
    events.sendEvent({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: internal.isMobile ? 'mobile' : 'qrcode' } })
    walletConnect.connectWallet(fromLatchWallet(wallet))
    return
  }
  // Retry from ConnectingExternal replaces the view rather than stacking a second one.
  if (router.store.getState().view === 'ConnectingExternal') router.replace('ConnectingExternal', { wallet: fromLatchWallet(wallet) })
  else router.push('ConnectingExternal', { wallet: fromLatchWallet(wallet) })
  events.sendEvent({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: 'browser' } })
  if (!wallet.connectorId) {
    // Registry-only wallets need WalletConnect or an install.
    slice.setState({ connectError: { kind: 'unknown', message: latch.t('connecting.notInstalled', { name: wallet.name }) } })
    return
  }
  try {
    // A wallet of another namespace (a Solana wallet's connector id is `solana:<name>`) connects through its adapter.
    const namespace = wallet.connectorId.startsWith('solana:') ? 'solana' : 'eip155'
    const active = internal.network.store.getState().activeNetwork
    await internal.clients.get(namespace)!.connect(wallet.connectorId, adapterOfNetwork(active).namespace === namespace ? { chainId: active.id } : {})
    walletConnected(latch, wallet, 'browser')
  } catch (error) {
    const kind = (error as { kind?: string }).kind === 'user_rejected' ? 'user_rejected' : 'unknown'
    const message = kind === 'user_rejected' ? latch.t('connecting.declined') : error instanceof Error ? error.message : String(error)
    slice.setState({ connectError: { kind, message } })
    events.sendEvent({ type: 'track', event: 'CONNECT_ERROR', properties: { message } })
  }
}
