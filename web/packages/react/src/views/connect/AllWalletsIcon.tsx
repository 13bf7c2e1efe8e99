import { useState, type CSSProperties } from 'react'
import type { LatchWallet } from '@latchkit/core'

// Inline styles: the icon is in the modal's chunk, so it adds nothing to the stylesheet a page loads first.
// Padding and gap in the theme's size unit (a percentage would be of the row's width); the cells stretch, as
// .latch-wallet-image centres its content and an image cell has no height of its own.
const grid: CSSProperties = {
  display: 'grid',
  gridTemplateColumns: '1fr 1fr',
  gridTemplateRows: '1fr 1fr',
  alignItems: 'stretch',
  gap: 'calc(var(--latch-font-size-master) * 0.3)',
  padding: 'calc(var(--latch-font-size-master) * 0.6)',
  boxSizing: 'border-box',
}
// Each cell clips its image (the shared .latch-wallet-image img rule fills the nearest positioned box).
const cell: CSSProperties = { position: 'relative', overflow: 'hidden', borderRadius: '28%', background: 'var(--latch-color-border)' }

/** allWalletsImages picks the icons AllWalletsIcon shows from a registry page: the first four wallets that have one. */
export function allWalletsImages(wallets: readonly LatchWallet[]): string[] {
  return wallets.flatMap((w) => (w.imageUrl ? [w.imageUrl] : [])).slice(0, 4)
}

/**
 * The "All wallets" row's icon, as AppKit draws it: a 2×2 grid of the registry's first wallets' icons (from the page
 * ConnectView reads for its count). A cell whose image is missing or fails stays a plain rounded square, so without
 * latchd the icon is a drawn grid.
 */
export function AllWalletsIcon({ images }: { images: readonly string[] }) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set())
  return (
    <span className="latch-wallet-image latch-all-wallets-icon" style={grid} aria-hidden="true" data-testid="latch-all-wallets-icon">
      {[0, 1, 2, 3].map((i) => {
        const src = images[i]
        return (
          <span key={i} style={cell} data-testid="latch-all-wallets-icon-cell">
            {src && !failed.has(src) ? (
              <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed((f) => new Set(f).add(src))} />
            ) : null}
          </span>
        )
      })}
    </span>
  )
}
