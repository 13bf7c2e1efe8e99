import type { LatchWallet } from '@latchkit/core'
import { isMobileUserAgent } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { CopyLinkButton, PairingError, RetryAfterDecline, useWalletConnectPairing, WalletConnectQrCode } from './ConnectingWalletConnectParts'
import { setAgreed, useConsent } from '../connect/consent'
import LegalConsent from '../connect/LegalConsent'
import { WalletListItem } from '../connect/WalletListItem'

/**
 * ConnectingWalletConnectBasic (spec §2): where the modal opens on a computer
 * when WalletConnect is the only way to connect (no other adapter) — the QR
 * code straight away, with All wallets below for a wallet's own link. On a
 * phone, where a QR code cannot be scanned, the wallets to open instead.
 * Loaded as its own chunk.
 */
export default function ConnectingWalletConnectBasicView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const mobile = isMobileUserAgent()
  const opts = latch._internal.opts
  // As in Connect: with features.legalCheckbox and a legal URL, nothing connects until the terms are agreed to.
  const { legal, agreed, blocked } = useConsent(latch)
  // A phone cannot scan its own screen: no pairing until a wallet is picked (nor before the terms are agreed to).
  const pairing = useWalletConnectPairing(!mobile && !blocked)
  const wallets = useLatchSelector((state) => state.wallets)
  if (!pairing) return null
  const showAll = opts.features.allWallets && (opts.allWallets === 'SHOW' || (opts.allWallets === 'ONLY_MOBILE' && mobile))
  const consent = legal ? <LegalConsent checkbox={opts.features.legalCheckbox} agreed={agreed} onAgree={(value) => setAgreed(latch, value)} /> : null
  const allWallets = !showAll ? null : (
    <button type="button" className="latch-list-item" data-testid="latch-all-wallets" aria-disabled={blocked || undefined} onClick={() => blocked || latch.push('AllWallets')}>
      <span className="latch-wallet-image latch-all-wallets-icon" aria-hidden="true" />
      <span className="latch-list-item-name">{t('connect.allWallets')}</span>
    </button>
  )
  const connect = (wallet: LatchWallet) => {
    if (!blocked) latch.connectWallet(wallet).catch(() => {})
  }

  return (
    <div className="latch-view latch-connecting latch-wc" data-testid="latch-view-ConnectingWalletConnectBasic">
      {mobile ? (
        <ul className="latch-list" aria-label={t('view.Connect')}>
          {wallets.map((wallet) => (
            <WalletListItem key={wallet.id} wallet={wallet} onSelect={connect} disabled={blocked} />
          ))}
          {allWallets ? <li>{allWallets}</li> : null}
        </ul>
      ) : blocked ? null : (
        <>
          <WalletConnectQrCode uri={pairing.uri} />
          <p className="latch-subtitle">{t('connecting.scanQr')}</p>
          <CopyLinkButton uri={pairing.uri} />
          <PairingError pairing={pairing} />
          <RetryAfterDecline pairing={pairing} />
          {allWallets ? <div className="latch-wc-all-wallets">{allWallets}</div> : null}
        </>
      )}
      {consent}
    </div>
  )
}
