import type { Latch, LatchWallet } from '../../latch-types'
import { LatchConnectError } from '../errors'
import { fromLatchWallet } from '../latchWallet'
import { connectHeadless } from './connectHeadless'
import { findWallet } from './findWallet'

/** Thrown by connectWalletById for a wallet id nothing resolves (a typo, or a wallet the app's lists exclude). */
export class LatchUnknownWalletError extends Error {
  override readonly name = 'LatchUnknownWalletError'
  readonly walletId: string

  constructor(walletId: string) {
    super(`Unknown wallet "${walletId}": pass a registry id, a wallet name such as "metamask", or "walletConnect"`)
    this.walletId = walletId
  }
}

/**
 * connectWalletById connects one named wallet (a wallet button): an
 * installed one (EIP-6963, matched with the registry by rdns) directly with
 * its connector; any other through WalletConnect, with the modal open on
 * ConnectingWalletConnect for that wallet (its deep link on a phone, its QR
 * code on a computer). Resolves with the wallet once connected; rejects with
 * LatchUnknownWalletError, a LatchConnectError, or one of kind user_rejected
 * when the visitor closes the modal first.
 */
export async function connectWalletById(latch: Latch, walletId: string): Promise<LatchWallet> {
  const wallet = await findWallet(latch, walletId)
  if (!wallet) throw new LatchUnknownWalletError(walletId)
  const { walletConnect, modal } = latch._internal
  if (!walletConnect.handles(wallet)) {
    await connectHeadless(latch, wallet)
    return wallet
  }
  // An account already connected (another wallet) is not this wallet's success.
  const before = latch.getState().account.caipAddress
  const connected = new Promise<LatchWallet>((resolve, reject) => {
    let opened = false
    const unsubscribe = latch.subscribe(() => {
      const { open, account } = latch.getState()
      if (account.status === 'connected' && account.caipAddress !== before) {
        unsubscribe()
        resolve(wallet)
      } else if (open) opened = true
      else if (opened) {
        // Closed without connecting: the visitor changed their mind.
        unsubscribe()
        reject(new LatchConnectError('user_rejected', latch.t('connecting.declined')))
      }
    })
  })
  latch._internal.events.sendEvent({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: latch._internal.isMobile ? 'mobile' : 'qrcode' } })
  await modal.open({ view: 'ConnectingWalletConnect', data: { wallet: fromLatchWallet(wallet) } })
  // The view asks for a pairing when it shows; asked here too, so it starts without waiting for a render.
  walletConnect.ensurePairing()
  return connected
}
