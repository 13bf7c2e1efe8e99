import { Avatar } from '../components/Avatar/Avatar'
import { useLatchInstance } from '../context'
import { useLatchSelector } from '../hooks/useLatchSelector'
import { useT } from '../hooks/useT'
import { truncateAddress } from '../utils'

/** The Account view shell: avatar, address, balance, copy, network badge, disconnect. */
export function AccountView() {
  const latch = useLatchInstance()
  const t = useT()
  const { address, balance, network } = useLatchSelector((state) => ({
    address: state.account.address,
    balance: state.account.balance,
    network: state.activeNetwork,
  }))
  if (!address) return null
  const copy = async () => {
    try {
      await latch.copyToClipboard(address)
      latch.showToast(t('account.addressCopied'), 'success')
    } catch {
      // core reports clipboard failures itself
    }
  }
  return (
    <div className="latch-view latch-account" data-testid="latch-view-Account">
      <Avatar address={address} size={64} />
      <div className="latch-account-row">
        <span className="latch-title" data-testid="latch-account-address" title={address}>
          {truncateAddress(address)}
        </span>
        <button type="button" className="latch-icon-button" data-testid="latch-copy-address" aria-label={t('button.copyAddress')} onClick={copy}>
          <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <rect x="4" y="4" width="8" height="8" rx="2" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path d="M2 10V3a1 1 0 0 1 1-1h7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
        </button>
      </div>
      {balance ? (
        <span className="latch-subtitle" data-testid="latch-account-balance">
          {balance.formatted} {balance.symbol}
        </span>
      ) : null}
      <button type="button" className="latch-network-badge" data-testid="latch-account-network" onClick={() => latch.push('Networks')}>
        <span className="latch-network-dot" aria-hidden="true" data-testnet={network.testnet ? '' : undefined} />
        {network.name}
      </button>
      <button
        type="button"
        className="latch-list-item latch-disconnect"
        data-testid="latch-disconnect"
        onClick={() => {
          latch.disconnect().catch(() => {})
        }}
      >
        {t('button.disconnect')}
      </button>
    </div>
  )
}
