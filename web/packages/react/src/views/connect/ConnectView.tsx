import { Suspense, useEffect, useState, type ReactNode } from 'react'
import { lazyRetry } from '../../lazyRetry'
import { EMBEDDED_CONNECTOR_ID, getEmbeddedState, isMobileUserAgent, type LatchWallet } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useStrings } from '../../hooks/useT'
import { useModalT } from '../../components/LatchModal/strings'
import { setAgreed, useConsent } from './consent'
import { connectStrings } from './strings'
import { AllWalletsIcon, allWalletsImages } from './AllWalletsIcon'
import { WalletImage } from './WalletImage'
import { WalletListItem } from './WalletListItem'

// The e-mail field is a chunk of its own, loaded only when the options allow e-mail login.
const EmailLogin = lazyRetry(() => import('../embedded/EmbeddedViews').then((m) => ({ default: m.EmailLogin })))
// The social buttons too, when the project offers socials (docs/social.md).
const SocialLogin = lazyRetry(() => import('../social/SocialLogin'))
// The legal links and the terms checkbox, only when the app gives a terms or privacy URL.
const LegalConsent = lazyRetry(() => import('./LegalConsent'))

/** "430+" style count for the All Wallets row, as AppKit shows it. */
function displayCount(count: number): string {
  return count > 10 ? `${Math.floor(count / 10) * 10}+` : String(count)
}

/**
 * The Connect view: e-mail, social and wallet sections in `connectMethodsOrder`; the wallets in core's order, then
 * an All Wallets row with the registry count (per `allWallets`); the legal links, and with `legalCheckbox` every
 * way to connect disabled until the terms are agreed to.
 */
export function ConnectView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const s = useStrings(connectStrings)
  const opts = latch._internal.opts
  const { legal, required, agreed, blocked } = useConsent(latch)
  const [expanded, setExpanded] = useState(false)
  const showAll = opts.features.allWallets && (opts.allWallets === 'SHOW' || (opts.allWallets === 'ONLY_MOBILE' && isMobileUserAgent()))
  // The e-mail wallet's connector is reached through the e-mail field, not listed as a wallet.
  const wallets = useLatchSelector((state) => state.wallets).filter((w) => w.connectorId !== EMBEDDED_CONNECTOR_ID)
  // The project's e-mail feature (latchd's config) can turn the field off.
  const emailOn = useLatchSelector((state) => state.features.email)
  const email = emailOn && getEmbeddedState(latch) !== undefined
  const socials = useLatchSelector((state) => state.features.socials)
  // Spec §9: the connect methods in the options' order (email, social, wallet by default).
  const methods = opts.features.connectMethodsOrder.filter((m) => (m !== 'email' && m !== 'social') || (email && (m === 'email' || (socials && socials.length))))
  const [count, setCount] = useState<number | null>(null)
  const [images, setImages] = useState<readonly string[]>([])
  useEffect(() => {
    let current = true
    // The count comes from the registry's first page (AllWallets asks for the same page, which latchd lets the
    // browser cache), and the All wallets icon shows its first wallets.
    latch.fetchWallets({ page: 1 }).then(
      (page) => current && (setCount(page.count), setImages(allWalletsImages(page.wallets))),
      () => current && setCount(null),
    )
    return () => {
      current = false
    }
  }, [latch])
  const connect = (wallet: LatchWallet) => {
    // A failure is reported in state.connectError, which ConnectingExternal renders.
    if (!blocked) latch.connectWallet(wallet).catch(() => {})
  }
  // With e-mail or social login shown, collapseWallets (or emailShowWallets false) folds the wallets into one row.
  const collapsed = !expanded && methods.length > 1 && (opts.features.collapseWallets || !opts.features.emailShowWallets)
  const emailField = (
    <Suspense key="email" fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
      <EmailLogin />
    </Suspense>
  )
  const walletList = collapsed ? (
    <button key="wallet" type="button" className="latch-list-item" data-testid="latch-continue-wallet" aria-disabled={blocked || undefined} onClick={() => blocked || setExpanded(true)}>
      <AllWalletsIcon images={images} />
      <span className="latch-list-item-name">{s('connect.continueWithWallet')}</span>
    </button>
  ) : (
    <ul key="wallet" className="latch-list" aria-label={t('view.Connect')}>
      {wallets.map((wallet) =>
        wallet.kind === 'walletConnect' ? (
          <WalletConnectRow key={wallet.id} wallet={wallet} onSelect={connect} disabled={blocked} />
        ) : (
          <WalletListItem key={wallet.id} wallet={wallet} onSelect={connect} disabled={blocked} />
        ),
      )}
      {showAll ? <li>
        <button type="button" className="latch-list-item" data-testid="latch-all-wallets" aria-disabled={blocked || undefined} onClick={() => blocked || latch.push('AllWallets')}>
          <AllWalletsIcon images={images} />
          <span className="latch-list-item-name">{t('connect.allWallets')}</span>
          {count !== null ? (
            <span className="latch-tag" data-testid="latch-all-wallets-count">
              {displayCount(count)}
            </span>
          ) : null}
        </button>
      </li> : null}
    </ul>
  )
  // With the terms checkbox, a disabled fieldset holds the e-mail field and the social buttons until it is ticked.
  const gate = (key: string, section: ReactNode) =>
    required ? (
      <fieldset key={key} className="latch-fieldset" disabled={blocked}>
        {section}
      </fieldset>
    ) : (
      section
    )
  const consent = legal ? (
    <Suspense key="legal" fallback={null}>
      <LegalConsent checkbox={opts.features.legalCheckbox} agreed={agreed} onAgree={(value) => setAgreed(latch, value)} />
    </Suspense>
  ) : null
  return (
    <div className="latch-view" data-testid="latch-view-Connect">
      {opts.features.legalCheckbox ? consent : null}
      {/* Each method in a section of its own; the "or" between two shows only when both have content (views.css): a
          section still loading (the socials' chunk) or with nothing to offer leaves no dangling separator. */}
      {methods.map((m, i) => [
        i > 0 ? (
          <p key={`or-${m}`} className="latch-subtitle latch-connect-or">
            {t('connect.orConnectWith')}
          </p>
        ) : null,
        <div key={m} className="latch-connect-section" data-method={m}>
          {m === 'wallet' ? walletList : gate(m, m === 'email' ? emailField : (
            <Suspense key="social" fallback={null}>
              <SocialLogin />
            </Suspense>
          ))}
        </div>,
      ])}
      <button type="button" className="latch-link-button" data-testid="latch-what-is-a-wallet" onClick={() => latch.push('WhatIsAWallet')}>
        {t('connect.haveNoWallet')}
      </button>
      {opts.features.legalCheckbox ? null : consent}
    </div>
  )
}

/** The WalletConnect entry: any WalletConnect wallet, by QR code (core shows it on computers only). */
function WalletConnectRow({ wallet, onSelect, disabled }: { wallet: LatchWallet; onSelect: (wallet: LatchWallet) => void; disabled: boolean }) {
  const t = useModalT()
  return (
    <li>
      <button type="button" className="latch-list-item" data-testid={`latch-wallet-${wallet.id}`} aria-disabled={disabled || undefined} onClick={() => onSelect(wallet)}>
        {/* The app's connectorImages entry for WalletConnect, else a drawn QR code. */}
        {wallet.imageUrl ? (
          <WalletImage src={wallet.imageUrl} name={wallet.name} />
        ) : (
          <span className="latch-wallet-image latch-wc-icon" aria-hidden="true">
            <svg width="22" height="22" viewBox="0 0 22 22">
              <path
                d="M2 2h7v7H2zM13 2h7v7h-7zM2 13h7v7H2zM4.5 4.5h2v2h-2zM15.5 4.5h2v2h-2zM4.5 15.5h2v2h-2zM13 13h2.5v2.5H13zM17.5 13H20v2.5h-2.5zM15.5 15.5h2v2h-2zM13 17.5h2.5V20H13zM17.5 17.5H20V20h-2.5z"
                fill="currentColor"
                fillRule="evenodd"
              />
            </svg>
          </span>
        )}
        <span className="latch-list-item-name">{wallet.name}</span>
        <span className="latch-tag latch-tag-accent" data-testid="latch-wallet-tag">
          {t('connect.qrCode')}
        </span>
      </button>
    </li>
  )
}
