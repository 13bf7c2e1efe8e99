// Pieces the two WalletConnect views share: the pairing hook, the QR code,
// the copy-link button and the failure notice. Loaded with those views, in
// their own chunk (uqr included), never on first load.
import { useEffect, useMemo } from 'react'
import { encode } from 'uqr'
import type { LatchWalletConnectState } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from '../connect/WalletImage'

/**
 * The pairing on offer. Asks for one when the view shows; core reuses the
 * pairing in flight while it has 10 s or more left and renews it before it
 * lapses (spec §9), so remounting the view never costs a new pairing.
 */
export function useWalletConnectPairing(enabled = true): LatchWalletConnectState | null {
  const latch = useLatchInstance()
  const pairing = useLatchSelector((state) => state.walletConnect)
  useEffect(() => {
    if (enabled) latch.pairWalletConnect()
  }, [latch, enabled])
  return pairing
}

/** The modules of a QR code as one SVG path, dark runs merged per row; `hole` (center, in modules) stays empty. */
export function qrPath(data: readonly (readonly boolean[])[], hole = 0): string {
  const size = data.length
  const from = Math.floor((size - hole) / 2)
  const to = from + hole
  const inHole = (x: number, y: number) => hole > 0 && x >= from && x < to && y >= from && y < to
  let d = ''
  data.forEach((row, y) => {
    let x = 0
    while (x < size) {
      if (!row[x] || inHole(x, y)) {
        x++
        continue
      }
      const start = x
      while (x < size && row[x] && !inHole(x, y)) x++
      d += `M${start} ${y}h${x - start}v1h${start - x}z`
    }
  })
  return d
}

/** Share of the QR code's width cleared for the wallet logo. */
const logoShare = 0.22

/**
 * Error correction: Q (25 %) for a plain code; H (30 %) under a logo, which
 * costs more than the cleared modules — a logo with a letter or a frame can
 * look like code to a scanner (checked with zbar: Q failed on about a third
 * of pairing URIs with a lettered logo, H on none).
 */
export function qrErrorCorrection(withLogo: boolean): 'Q' | 'H' {
  return withLogo ? 'H' : 'Q'
}

export type WalletConnectQrCodeProps = {
  uri: string | undefined
  /** The wallet's image, shown in the middle. */
  imageUrl?: string | undefined
  name?: string | undefined
}

/**
 * The pairing URI as a QR code (SVG, always dark on light so phones can read
 * it in either theme), with the wallet's logo in the middle; a placeholder
 * while the pairing is being created.
 */
export function WalletConnectQrCode({ uri, imageUrl, name }: WalletConnectQrCodeProps) {
  const t = useModalT()
  const showLogo = Boolean(name)
  const qr = useMemo(() => (uri ? encode(uri, { ecc: qrErrorCorrection(showLogo), border: 0 }) : undefined), [uri, showLogo])
  if (!qr || !uri) {
    return (
      <div className="latch-wc-qr" data-testid="latch-wc-qr-loading" aria-busy="true" aria-label={t('walletConnect.preparing')}>
        <span className="latch-spinner" aria-hidden="true" />
      </div>
    )
  }
  let hole = showLogo ? Math.ceil(qr.size * logoShare) : 0
  if (hole > 0 && (qr.size - hole) % 2 !== 0) hole++ // keep the hole centred on whole modules
  return (
    <div className="latch-wc-qr" data-testid="latch-wc-qr" dir="ltr">
      <div className="latch-wc-qr-code">
        <svg
          role="img"
          aria-label={t('walletConnect.qrLabel')}
          viewBox={`0 0 ${qr.size} ${qr.size}`}
          shapeRendering="crispEdges"
          data-testid="latch-wc-qr-svg"
        >
          <path d={qrPath(qr.data, hole)} fill="currentColor" />
        </svg>
        {showLogo ? (
          <span className="latch-wc-qr-logo" style={{ width: `${(hole / qr.size) * 100}%` }}>
            <WalletImage src={imageUrl} name={name ?? ''} size={48} />
          </span>
        ) : null}
      </div>
    </div>
  )
}

/** Copies the pairing URI, for wallets on this device or pasted elsewhere. */
export function CopyLinkButton({ uri }: { uri: string | undefined }) {
  const latch = useLatchInstance()
  const t = useModalT()
  const copy = () => {
    if (!uri) return
    navigator.clipboard.writeText(uri).then(
      () => latch.showToast(t('connecting.linkCopied'), 'success'),
      () => latch.showToast(t('walletConnect.copyFailed'), 'error'),
    )
  }
  return (
    <button type="button" className="latch-secondary-button" data-testid="latch-wc-copy-link" disabled={!uri} onClick={copy}>
      <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
        <rect x="4.5" y="4.5" width="8" height="8" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
        <path d="M9.5 2.5v-.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
      </svg>
      {t('button.copyLink')}
    </button>
  )
}

/**
 * Why the last attempt failed. After a decline core has already offered a new
 * pairing (spec §9: retry after 1 s), so the notice says to scan again; other
 * failures (an unreachable relay) wait for Try again.
 */
export function PairingError({ pairing }: { pairing: LatchWalletConnectState }) {
  const latch = useLatchInstance()
  const t = useModalT()
  const { error } = pairing
  if (!error) return null
  if (error.kind === 'user_rejected') {
    return (
      <p className="latch-subtitle latch-error-text" role="alert" data-testid="latch-wc-error">
        {pairing.pending ? t('walletConnect.declinedRetrying') : t('connecting.declined')}
      </p>
    )
  }
  return (
    <div className="latch-wc-error" role="alert" data-testid="latch-wc-error">
      <p className="latch-title latch-error-text">{t('connecting.failed')}</p>
      <p className="latch-subtitle">{error.message}</p>
      {pairing.pending ? null : (
        <button type="button" className="latch-secondary-button" data-testid="latch-wc-retry" onClick={() => latch.retryWalletConnect()}>
          {t('button.tryAgain')}
        </button>
      )}
    </div>
  )
}

/** A decline while no pairing is on offer (within 1 s of the last attempt) also needs a way back in. */
export function RetryAfterDecline({ pairing }: { pairing: LatchWalletConnectState }) {
  const latch = useLatchInstance()
  const t = useModalT()
  if (pairing.error?.kind !== 'user_rejected' || pairing.pending) return null
  return (
    <button type="button" className="latch-secondary-button" data-testid="latch-wc-retry" onClick={() => latch.retryWalletConnect()}>
      {t('button.tryAgain')}
    </button>
  )
}
