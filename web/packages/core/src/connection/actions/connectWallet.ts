import type { Latch, LatchWallet } from '../../latch-types'
import type { LatchConnectError } from '../errors'
import { fromLatchWallet } from '../latchWallet'
import { connectInjected } from './connectInjected'

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
    await connectInjected(latch, { ...wallet, connectorId: wallet.connectorId })
  } catch (error) {
    const { kind, message } = error as LatchConnectError
    slice.setState({ connectError: { kind, message } })
  }
}
