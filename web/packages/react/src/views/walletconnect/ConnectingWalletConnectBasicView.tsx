import type { LatchWallet } from '@latchkit/core'
import { isMobileUserAgent } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useT } from '../../hooks/useT'
import { CopyLinkButton, PairingError, RetryAfterDecline, useWalletConnectPairing, WalletConnectQrCode } from './ConnectingWalletConnectParts'
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
  const t = useT()
  const mobile = isMobileUserAgent()
  // A phone cannot scan its own screen: no pairing until a wallet is picked.
  const pairing = useWalletConnectPairing(!mobile)
  const wallets = useLatchSelector((state) => state.wallets)
  if (!pairing) return null
  const allWallets = (
    <button type="button" className="latch-list-item" data-testid="latch-all-wallets" onClick={() => latch.push('AllWallets')}>
      <span className="latch-wallet-image latch-all-wallets-icon" aria-hidden="true" />
      <span className="latch-list-item-name">{t('connect.allWallets')}</span>
    </button>
  )
  const connect = (wallet: LatchWallet) => {
    latch.connectWallet(wallet).catch(() => {})
  }

  return (
    <div className="latch-view latch-connecting latch-wc" data-testid="latch-view-ConnectingWalletConnectBasic">
      {mobile ? (
        <ul className="latch-list" aria-label={t('view.Connect')}>
          {wallets.map((wallet) => (
            <WalletListItem key={wallet.id} wallet={wallet} onSelect={connect} />
          ))}
          <li>{allWallets}</li>
        </ul>
      ) : (
        <>
          <WalletConnectQrCode uri={pairing.uri} />
          <p className="latch-subtitle">{t('connecting.scanQr')}</p>
          <CopyLinkButton uri={pairing.uri} />
          <PairingError pairing={pairing} />
          <RetryAfterDecline pairing={pairing} />
          <div className="latch-wc-all-wallets">{allWallets}</div>
        </>
      )}
    </div>
  )
}
