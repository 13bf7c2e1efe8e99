import type { Latch, LatchWallet } from '../../latch-types'
import { isWalletConnectView } from '../../walletconnect/controller'
import { LatchConnectError } from '../errors'
import { fromLatchWallet } from '../latchWallet'
import { connectInjected } from './connectInjected'

/**
 * connectHeadless connects a wallet without the modal (an app's own connect
 * UI, useLatchWallets): an installed or external wallet through its
 * connector; any other through a headless WalletConnect pairing whose URI
 * and errors are in `latch.getState().walletConnect` for the app's own QR
 * code or deep link, kept on offer (renewed, retried after a decline) with
 * the modal closed. Resolves once connected; rejects with a
 * LatchConnectError (a decline, a failure, or the pairing was reset).
 */
export async function connectHeadless(latch: Latch, wallet: LatchWallet): Promise<void> {
  const { walletConnect, events, isMobile } = latch._internal
  if (walletConnect.handles(wallet)) {
    events.sendEvent({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: isMobile ? 'mobile' : 'qrcode' } })
    return walletConnect.pair(fromLatchWallet(wallet))
  }
  events.sendEvent({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: 'browser' } })
  // Registry-only wallets need WalletConnect (not configured here) or an install.
  if (!wallet.connectorId) throw new LatchConnectError('unknown', latch.t('connecting.notInstalled', { name: wallet.name }))
  return connectInjected(latch, { ...wallet, connectorId: wallet.connectorId })
}

/**
 * resetWalletConnect abandons a headless WalletConnect pairing and clears its
 * URI and error (AppKit's resetWcUri). A pairing the modal shows is the
 * modal's: it is left alone.
 */
export function resetWalletConnect(latch: Latch): void {
  const { walletConnect, modal, router } = latch._internal
  if (walletConnect.isHeadless() || !modal.store.getState().open || !isWalletConnectView(router.store.getState().view)) walletConnect.stop()
}
