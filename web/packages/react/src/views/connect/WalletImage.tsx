import { useEffect, useState } from 'react'
import { imagePreloadLimitMs } from '../../constants'

export type WalletImageProps = { src: string | undefined; name: string; size?: number }

/**
 * A lazily loaded wallet icon. If it has not loaded within the preload limit (2 s, spec §9) or fails,
 * a placeholder with the wallet's initial stays instead.
 */
export function WalletImage({ src, name, size = 40 }: WalletImageProps) {
  const [status, setStatus] = useState<'loading' | 'loaded' | 'failed'>(src ? 'loading' : 'failed')
  useEffect(() => {
    setStatus(src ? 'loading' : 'failed')
    if (!src) return
    const timer = setTimeout(() => setStatus((s) => (s === 'loading' ? 'failed' : s)), imagePreloadLimitMs)
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
          onLoad={() => setStatus((s) => (s === 'loading' ? 'loaded' : s))}
          onError={() => setStatus('failed')}
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
