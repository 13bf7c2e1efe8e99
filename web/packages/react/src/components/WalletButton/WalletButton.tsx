import { useEffect, useState } from 'react'
import { findWallet, type LatchWallet } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchWallet, type UseLatchWalletParameters } from '../../hooks/useLatchWallet'
import { useThemeScope } from '../../hooks/useThemeScope'
import { useStrings } from '../../hooks/useT'
import { walletButtonStrings } from './strings'

export type WalletButtonProps = UseLatchWalletParameters & {
  /** The wallet: a name as AppKit's wallet buttons take it (`metamask`, `trust`, `coinbase`), a registry id, or `walletConnect`. */
  wallet: string
  /** Overrides the "Connect <wallet>" label. */
  label?: string
  disabled?: boolean
}

/** The wallet a button names, looked up once for its name and icon; null when nothing matches it. */
function useNamedWallet(walletId: string): LatchWallet | null | undefined {
  const latch = useLatchInstance()
  const [found, setFound] = useState<{ id: string; wallet: LatchWallet | null } | undefined>(undefined)
  useEffect(() => {
    let live = true
    findWallet(latch, walletId).then(
      (wallet) => live && setFound({ id: walletId, wallet: wallet ?? null }),
      // latchd unreachable: the button still works with the id as its name, and connecting says what failed.
      () => {},
    )
    return () => {
      live = false
    }
  }, [latch, walletId])
  return found?.id === walletId ? found.wallet : undefined
}

/**
 * One wallet's connect button (AppKit's `<appkit-wallet-button>`): an installed wallet connects directly, any other
 * through WalletConnect with the modal on that wallet. Disabled while connecting; themed by the Latch variables like
 * the connect button (class `latch-wallet-button` for an app's own rules).
 */
export function WalletButton({ wallet, label, disabled, onSuccess, onError }: WalletButtonProps) {
  const scope = useThemeScope()
  const s = useStrings(walletButtonStrings)
  const named = useNamedWallet(wallet)
  const { connect, isPending, error } = useLatchWallet({ ...(onSuccess ? { onSuccess } : {}), ...(onError ? { onError } : {}) })
  const name = named?.name ?? wallet
  const unknown = named === null || error?.name === 'LatchUnknownWalletError'
  return (
    <span {...scope} className="latch-inline">
      <button
        type="button"
        className="latch-connect-button latch-wallet-button"
        data-testid={`latch-wallet-button-${wallet}`}
        disabled={disabled || isPending}
        aria-busy={isPending || undefined}
        onClick={() => void connect(wallet)}
      >
        {named?.imageUrl ? <img src={named.imageUrl} alt="" width={20} height={20} /> : null}
        {isPending ? s('walletButton.connecting', { name }) : (label ?? s('walletButton.connect', { name }))}
      </button>
      {unknown || error ? (
        <span role="alert" className="latch-wallet-button-error">
          {unknown ? s('walletButton.unknown', { name: wallet }) : error?.message}
        </span>
      ) : null}
    </span>
  )
}
