import { useState } from 'react'
import { useLatchInstance } from '../../context'
import { useLatchConnections, type LatchConnection } from '../../hooks/useLatchConnections'
import { useStrings } from '../../hooks/useT'
import { truncateAddress } from '../../utils'
import { WalletImage } from '../connect/WalletImage'
import { profileStrings } from './strings'

/**
 * ProfileWallets (multi-wallet, opened from Account): every wallet connected in the account's namespace with
 * its icon, name and address, the active one marked; switching to another, disconnecting one, and adding one
 * (the Connect view, which keeps the wallets already connected).
 */
export function ProfileWalletsView() {
  const latch = useLatchInstance()
  const s = useStrings(profileStrings)
  const { connections, switchConnection, disconnect } = useLatchConnections()
  // The row whose switch or disconnect is running: its buttons wait, so one click is one request.
  const [busy, setBusy] = useState<string | undefined>()

  const run = async (connection: LatchConnection, action: () => Promise<void>, failure: 'profile.switchFailed' | 'profile.disconnectFailed') => {
    setBusy(connection.connectorId)
    try {
      await action()
    } catch {
      latch.showToast(s(failure, { name: connection.name }), 'error')
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <div className="latch-view" data-testid="latch-view-ProfileWallets">
      <ul className="latch-list" aria-label={s('profile.listLabel')}>
        {connections.map((c) => {
          const address = c.accounts[0]
          return (
            <li
              key={c.connectorId}
              className="latch-list-item"
              data-testid={`latch-profile-wallet-${c.connectorId}`}
              aria-current={c.isActive ? 'true' : undefined}
            >
              <WalletImage src={c.icon} name={c.name} size={32} />
              <span className="latch-list-item-name">
                {c.name}
                {address ? (
                  <span className="latch-subtitle" style={{ display: 'block' }} title={address} dir="ltr" data-testid="latch-profile-wallet-address">
                    {truncateAddress(address)}
                  </span>
                ) : null}
              </span>
              {c.isActive ? (
                <span className="latch-tag" data-testid="latch-profile-wallet-active">
                  {s('profile.active')}
                </span>
              ) : (
                <button
                  type="button"
                  className="latch-secondary-button"
                  data-testid="latch-profile-wallet-switch"
                  // The row is bg-secondary already; the page's own background keeps the button visible on it.
                  style={{ background: 'var(--latch-color-bg)' }}
                  aria-label={s('profile.switchTo', { name: c.name })}
                  disabled={busy !== undefined}
                  onClick={() => run(c, () => switchConnection(c.connectorId), 'profile.switchFailed')}
                >
                  {s('profile.switch')}
                </button>
              )}
              <button
                type="button"
                className="latch-icon-button"
                data-testid="latch-profile-wallet-disconnect"
                aria-label={s('profile.disconnectWallet', { name: c.name })}
                title={s('profile.disconnectWallet', { name: c.name })}
                disabled={busy !== undefined}
                onClick={() => run(c, () => disconnect(c.connectorId), 'profile.disconnectFailed')}
              >
                <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
                  <path d="M3 3l8 8M11 3l-8 8" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                </svg>
              </button>
            </li>
          )
        })}
      </ul>
      <button type="button" className="latch-secondary-button" data-testid="latch-profile-add-wallet" onClick={() => latch.push('Connect')}>
        {s('profile.addWallet')}
      </button>
    </div>
  )
}
