import { useEffect, useRef, useState } from 'react'
import {
  isMobileUserAgent,
  linkTarget,
  WALLET_CONNECT_ID,
  walletConnectLink,
  walletConnectPlatforms,
  type LatchWallet,
  type MessageKey,
  type WalletConnectPlatform,
} from '@latchkit/core'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT, type ModalStringKey } from '../../components/LatchModal/strings'
import {
  CopyLinkButton,
  PairingError,
  RetryAfterDecline,
  useWalletConnectPairing,
  WalletConnectQrCode,
} from './ConnectingWalletConnectParts'
import { WalletImage } from '../connect/WalletImage'

const platformLabel: Record<WalletConnectPlatform, ModalStringKey> = {
  qrcode: 'walletConnect.platformQrcode',
  mobile: 'walletConnect.platformMobile',
  desktop: 'walletConnect.platformDesktop',
  web: 'walletConnect.platformWeb',
}

/** Whether the page runs in a frame (a wallet link must then navigate the top window). */
function inFrame(): boolean {
  try {
    return window.top !== window.self
  } catch {
    return true // a cross-origin parent: framed
  }
}

/**
 * ConnectingWalletConnect (spec §2): a wallet reached through WalletConnect.
 * On a computer the QR code its phone app scans; on a phone the wallet's deep
 * link; and, where the registry lists them, its web app and desktop app —
 * each a tab when there are several. Without a specific wallet (the generic
 * WalletConnect entry) the QR code alone. Loaded as its own chunk.
 */
export default function ConnectingWalletConnectView() {
  const t = useModalT()
  const picked = useLatchSelector((state) => state.viewData.wallet)
  const wallet = picked && picked.id !== WALLET_CONNECT_ID ? picked : undefined
  const pairing = useWalletConnectPairing()
  const platforms = walletConnectPlatforms(wallet, isMobileUserAgent())
  // The visitor's tab, while the wallet still has it; else the default (first) one.
  const [chosen, setPlatform] = useState<WalletConnectPlatform | undefined>(undefined)
  const platform = chosen && platforms.includes(chosen) ? chosen : (platforms[0] ?? 'qrcode')
  if (!pairing) return null

  return (
    <div className="latch-view latch-connecting latch-wc" data-testid="latch-view-ConnectingWalletConnect" data-platform={platform}>
      {platforms.length > 1 ? (
        <div className="latch-tabs" role="tablist" aria-label={t('walletConnect.platforms')}>
          {platforms.map((p) => (
            <button
              key={p}
              type="button"
              role="tab"
              className="latch-tab"
              aria-selected={p === platform}
              data-testid={`latch-wc-platform-${p}`}
              onClick={() => setPlatform(p)}
            >
              {t(platformLabel[p])}
            </button>
          ))}
        </div>
      ) : null}
      {platform === 'qrcode' ? (
        <>
          <WalletConnectQrCode uri={pairing.uri} imageUrl={wallet?.imageUrl} name={wallet?.name} />
          <p className="latch-subtitle">{t('connecting.scanQr')}</p>
          <CopyLinkButton uri={pairing.uri} />
        </>
      ) : (
        <WalletLinkPanel wallet={wallet!} platform={platform} uri={pairing.uri} />
      )}
      <PairingError pairing={pairing} />
      <RetryAfterDecline pairing={pairing} />
    </div>
  )
}

/**
 * A wallet app (phone, computer or web) opened with the pairing in its link. On a phone the app opens by itself
 * with the first pairing (as a wallet button promises: one tap, then the wallet); the Open button stays for a
 * second try, and a later pairing (after a decline) waits for that tap rather than sending the visitor back.
 */
function WalletLinkPanel({ wallet, platform, uri }: { wallet: LatchWallet; platform: WalletConnectPlatform; uri: string | undefined }) {
  const t = useModalT()
  const link = uri ? walletConnectLink(wallet, platform, uri) : undefined
  const target = link ? linkTarget(platform, link.redirect, inFrame()) : undefined
  const redirected = useRef(false)
  const redirect = platform === 'mobile' ? link?.redirect : undefined
  useEffect(() => {
    if (!redirect || !target || redirected.current) return
    redirected.current = true
    window.open(redirect, target)
  }, [redirect, target])
  const label =
    platform === 'web' ? t('walletConnect.openWebApp') : platform === 'desktop' ? t('walletConnect.openDesktop', { name: wallet.name }) : t('walletConnect.open')
  return (
    <>
      <div className="latch-connecting-icon">
        <WalletImage src={wallet.imageUrl} name={wallet.name} size={72} />
      </div>
      <p className="latch-title" data-testid="latch-connect-pending">
        {t('connecting.continueIn', { name: wallet.name })}
      </p>
      <p className="latch-subtitle">{t('connecting.acceptRequest')}</p>
      {link ? (
        <a
          className="latch-primary-button latch-wc-open"
          data-testid="latch-wc-open"
          href={link.redirect}
          target={target}
          rel={target === '_blank' ? 'noopener noreferrer' : undefined}
        >
          {label}
        </a>
      ) : (
        <span className="latch-spinner" data-testid="latch-wc-qr-loading" aria-label={t('walletConnect.preparing')} />
      )}
      <CopyLinkButton uri={uri} />
    </>
  )
}
