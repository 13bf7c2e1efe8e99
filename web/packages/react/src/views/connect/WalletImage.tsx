import { useEffect, useState } from 'react'
import { imagePreloadLimitMs } from '../../constants'

export type WalletImageProps = { src: string | undefined; name: string; size?: number }

/**
 * A lazily loaded wallet, network or token icon. If it has not loaded within the preload limit (2 s, spec §9) or
 * fails, a placeholder with the name's initial stays instead.
 */
export function WalletImage({ src, name, size = 40 }: WalletImageProps) {
  // The outcome is kept with the source it is for: a new src starts loading again, and a load that lands before
  // the effects run (an image the browser has cached) is not reset by them.
  const [result, setResult] = useState<{ src: string; status: 'loaded' | 'failed' }>()
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
          onLoad={() => setResult((r) => (r?.src === src ? r : { src, status: 'loaded' }))}
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
