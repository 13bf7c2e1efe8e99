import { useT } from '../../hooks/useT'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useThemeScope } from '../../hooks/useThemeScope'
import { AccountButton } from '../AccountButton/AccountButton'
import { ConnectButtonRenderer } from './ConnectButtonRenderer'

export type ConnectButtonProps = {
  /** Overrides the "Connect Wallet" label. */
  label?: string
  /** Overrides the "Connecting..." label. */
  loadingLabel?: string
  /** Show the native balance once connected (default 'show'). */
  balance?: 'show' | 'hide'
}

/** "Connect Wallet" when disconnected, the account button (avatar, balance, address) once connected. */
export function ConnectButton({ label, loadingLabel, balance = 'show' }: ConnectButtonProps) {
  const t = useT()
  const scope = useThemeScope()
  // A WalletConnect pairing on offer (a QR code on screen) is not a connection in progress: wagmi says 'connecting'
  // from the moment the QR code shows, though nothing may ever scan it.
  const offering = useLatchSelector((s) => !!s.walletConnect?.pending)
  return (
    <ConnectButtonRenderer>
      {({ account, status, openConnectModal }) => {
        if (account) return <AccountButton balance={balance} />
        const connecting = (status === 'connecting' && !offering) || status === 'reconnecting'
        return (
          <span {...scope} className="latch-inline">
            <button
              type="button"
              className="latch-connect-button"
              data-testid="latch-connect-button"
              aria-busy={connecting || undefined}
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
