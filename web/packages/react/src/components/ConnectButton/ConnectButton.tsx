import { useLatchInstance } from '../../context'
import { useT } from '../../hooks/useT'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useThemeScope } from '../../hooks/useThemeScope'
import { AccountButton } from '../AccountButton/AccountButton'
import { prefetchConnect } from '../LatchModal/LatchModal'
import { ConnectButtonRenderer } from './ConnectButtonRenderer'

export type ConnectButtonProps = {
  /** Overrides the "Connect Wallet" label. */
  label?: string
  /** Overrides the "Connecting..." label. */
  loadingLabel?: string
  /** Show the balance once connected (default 'show'). */
  balance?: 'show' | 'hide'
  /** The connect button's height: 'md' (default) or 'sm'. */
  size?: 'md' | 'sm'
  /** Disables the button (and the account button once connected). */
  disabled?: boolean
  /** Characters of the address the account button keeps before the ellipsis (default 4). */
  charsStart?: number
  /** Characters of the address the account button keeps after the ellipsis (default 6). */
  charsEnd?: number
}

/** "Connect Wallet" when disconnected, the account button (avatar, balance, address) once connected. */
export function ConnectButton({ label, loadingLabel, balance = 'show', size = 'md', disabled = false, charsStart, charsEnd }: ConnectButtonProps) {
  const latch = useLatchInstance()
  const t = useT()
  const scope = useThemeScope()
  // The pointer over the button, or focus on it, comes before its click: what the Connect view needs loads then.
  // data-prefetched marks the button once it has (for tests and tools that wait for it, not for the time).
  const prefetch = (event: { currentTarget: HTMLButtonElement }) => {
    const button = event.currentTarget
    void prefetchConnect(latch).then(() => button.setAttribute('data-prefetched', ''))
  }
  // A WalletConnect pairing on offer (a QR code on screen) is not a connection in progress: wagmi says 'connecting'
  // from the moment the QR code shows, though nothing may ever scan it.
  const offering = useLatchSelector((s) => !!s.walletConnect?.pending)
  return (
    <ConnectButtonRenderer>
      {({ account, status, openConnectModal }) => {
        if (account) {
          const chars = { ...(charsStart !== undefined ? { charsStart } : {}), ...(charsEnd !== undefined ? { charsEnd } : {}) }
          return <AccountButton balance={balance} disabled={disabled} {...chars} />
        }
        const connecting = (status === 'connecting' && !offering) || status === 'reconnecting'
        return (
          <span {...scope} className="latch-inline">
            <button
              type="button"
              className="latch-connect-button"
              data-testid="latch-connect-button"
              data-size={size === 'sm' ? 'sm' : undefined}
              aria-busy={connecting || undefined}
              disabled={disabled}
              onPointerOver={prefetch}
              onFocus={prefetch}
              onClick={openConnectModal}
            >
              {connecting ? (loadingLabel ?? t('button.connecting')) : (label ?? t('button.connect'))}
            </button>
          </span>
        )
      }}
    </ConnectButtonRenderer>
  )
}

/** Render-prop form, as RainbowKit's `ConnectButton.Custom`. */
ConnectButton.Custom = ConnectButtonRenderer
