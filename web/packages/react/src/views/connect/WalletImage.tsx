import { useEffect, useState } from 'react'
import { imagePreloadLimitMs } from '../../constants'

export type WalletImageProps = { src: string | undefined; name: string; size?: number }

// The icons this page has asked for (false) or loaded (true): an icon loaded once starts as loaded in a view opened
// later, which then draws it in its first frame rather than a placeholder first.
const images = new Map<string, boolean>()

/** preloadImage has the browser fetch and decode an icon a view is about to show (once per address). */
export function preloadImage(src: string): void {
  if (images.has(src) || typeof Image === 'undefined') return
  images.set(src, false)
  const image = new Image()
  image.src = src
  // decode() (where the browser has it) leaves the decoded picture ready for the view's first paint.
  image.decode?.().then(
    () => images.set(src, true),
    () => images.delete(src),
  )
}

/**
 * A lazily loaded wallet, network or token icon. If it has not loaded within the preload limit (2 s, spec §9) or
 * fails, a placeholder with the name's initial stays instead.
 */
export function WalletImage({ src, name, size = 40 }: WalletImageProps) {
  // The outcome is kept with the source it is for: a new src starts loading again, and a load that lands before
  // the effects run (an image the browser has cached) is not reset by them.
  const [result, setResult] = useState<{ src: string; status: 'loaded' | 'failed' } | undefined>(() => (src && images.get(src) ? { src, status: 'loaded' } : undefined))
  const status = !src ? 'failed' : result?.src === src ? result.status : 'loading'
  useEffect(() => {
    if (!src) return
    const timer = setTimeout(() => setResult((r) => (r?.src === src ? r : { src, status: 'failed' })), imagePreloadLimitMs)
    return () => clearTimeout(timer)
  }, [src])
  return (
    <span className="latch-wallet-image" style={{ width: size, height: size }} data-status={status}>
      {status !== 'failed' && src ? (
        <img
          src={src}
          alt=""
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          onLoad={() => (images.set(src, true), setResult((r) => (r?.src === src ? r : { src, status: 'loaded' })))}
          onError={() => setResult({ src, status: 'failed' })}
        />
      ) : null}
      {status !== 'loaded' ? (
        <span className="latch-wallet-placeholder" data-testid="latch-wallet-placeholder" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      ) : null}
    </span>
  )
}
