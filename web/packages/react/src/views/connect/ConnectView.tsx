import { Suspense, useEffect, useState, type ReactNode } from 'react'
import { lazyRetry } from '../../lazyRetry'
import { EMBEDDED_CONNECTOR_ID, getEmbeddedState, isMobileUserAgent, type Latch, type LatchWallet, type WalletPage } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useStrings } from '../../hooks/useT'
import { useModalT } from '../../components/LatchModal/strings'
import { hasLegalLinks, setAgreed, useConsent } from './consent'
import { connectStrings } from './strings'
import { AllWalletsIcon, allWalletsImages } from './AllWalletsIcon'
import { preloadImage, WalletImage } from './WalletImage'
import { WalletListItem } from './WalletListItem'

// The e-mail field is a chunk of its own, loaded only when the options allow e-mail login.
const EmailLogin = lazyRetry(() => import('../embedded/EmbeddedViews').then((m) => ({ default: m.EmailLogin })))
// The social buttons too, when the project offers socials (docs/social.md), with the e-mail wallet's actions their
// clicks need, so that the buttons are enabled from their first render.
const SocialLogin = lazyRetry(() => import('../social/SocialLogin').then((m) => m.actionsReady.then(() => m)))
// The legal links and the terms checkbox, only when the app gives a terms or privacy URL.
const LegalConsent = lazyRetry(() => import('./LegalConsent'))

/** Whether the e-mail field shows: latchd's project allows it and the options give an e-mail wallet. */
function emailShown(latch: Latch, emailOn: boolean | undefined): boolean {
  return !!emailOn && getEmbeddedState(latch) !== undefined
}

// The registry's first page (the All Wallets row's count and icon), per instance: read once, by the prefetch or the
// view's first open, and shown from then on with the view's first frame. Options or networks that change (runtime
// updates) make a new read; a failed read is forgotten, so the next open reads again.
type FirstPage = { readonly opts: object; readonly networks: object; readonly page: Promise<WalletPage>; loaded?: WalletPage }
const firstPages = new WeakMap<Latch, FirstPage>()

/** loadFirstWalletPage reads the registry's first page for the All Wallets row, once per instance and options. */
export function loadFirstWalletPage(latch: Latch): Promise<WalletPage> {
  const { opts, networks } = latch._internal
  const cached = firstPages.get(latch)
  if (cached && cached.opts === opts && cached.networks === networks) return cached.page
  const entry: FirstPage = { opts, networks, page: latch.fetchWallets({ page: 1 }) }
  entry.page.then(
    (page) => void (entry.loaded = page),
    () => firstPages.get(latch) === entry && firstPages.delete(latch),
  )
  firstPages.set(latch, entry)
  return entry.page
}

/** The first page when it has been read for the instance's current options. */
function loadedFirstWalletPage(latch: Latch): WalletPage | undefined {
  const { opts, networks } = latch._internal
  const cached = firstPages.get(latch)
  return cached && cached.opts === opts && cached.networks === networks ? cached.loaded : undefined
}

/**
 * prefetchConnectView loads what the Connect view shows beyond the dialog's chunk, so that a click shows it whole in
 * its first frame: the e-mail field's, the social buttons' (with their actions) and the legal links' chunks when
 * the view will show them, the registry's first page, and the wallets' icons. Each load happens once (a failed one
 * again at the next call); the promise settles when all have, and never rejects.
 */
export function prefetchConnectView(latch: Latch): Promise<void> {
  const state = latch.getState()
  const email = emailShown(latch, state.features.email)
  const loads: Promise<unknown>[] = [loadFirstWalletPage(latch).then((page) => allWalletsImages(page.wallets).forEach(preloadImage))]
  if (email) loads.push(EmailLogin.preload())
  if (email && state.features.socials && state.features.socials.length) loads.push(SocialLogin.preload())
  if (hasLegalLinks(latch)) loads.push(LegalConsent.preload())
  for (const wallet of state.wallets) if (wallet.imageUrl && wallet.connectorId !== EMBEDDED_CONNECTOR_ID) preloadImage(wallet.imageUrl)
  return Promise.allSettled(loads).then(() => undefined)
}

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
  const email = emailShown(latch, useLatchSelector((state) => state.features.email))
  const socials = useLatchSelector((state) => state.features.socials)
  // Spec §9: the connect methods in the options' order (email, social, wallet by default).
  const methods = opts.features.connectMethodsOrder.filter((m) => (m !== 'email' && m !== 'social') || (email && (m === 'email' || (socials && socials.length))))
  // The count comes from the registry's first page (AllWallets asks for the same page, which latchd lets the
  // browser cache), and the All wallets icon shows its first wallets: at once when prefetched, else once read.
  const [page, setPage] = useState(() => loadedFirstWalletPage(latch))
  useEffect(() => {
    if (page) return
    let current = true
    loadFirstWalletPage(latch).then(
      (read) => current && setPage(read),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [latch, page])
  const count = page ? page.count : null
  const images = page ? allWalletsImages(page.wallets) : []
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
