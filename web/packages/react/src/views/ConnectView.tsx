import { useEffect, useState } from 'react'
import type { LatchWallet } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from '../hooks/useLatchSelector'
import { useT } from '../hooks/useT'
import { WalletListItem } from './WalletListItem'

/** "430+" style count for the All Wallets row, as AppKit shows it. */
function displayCount(count: number): string {
  return count > 10 ? `${Math.floor(count / 10) * 10}+` : String(count)
}

/** The Connect view: the wallets in core's order, then an All Wallets row with the registry count. */
export function ConnectView() {
  const latch = useLatchInstance()
  const t = useT()
  const wallets = useLatchSelector((state) => state.wallets)
  const [count, setCount] = useState<number | null>(null)
  useEffect(() => {
    let current = true
    // The count comes from the registry's first page (core caches it; AllWallets asks for the same page).
    latch.fetchWallets({ page: 1 }).then(
      (page) => current && setCount(page.count),
      () => current && setCount(null),
    )
    return () => {
      current = false
    }
  }, [latch])
  const connect = (wallet: LatchWallet) => {
    // A failure is reported in state.connectError, which ConnectingExternal renders.
    latch.connectWallet(wallet).catch(() => {})
  }
  return (
    <div className="latch-view" data-testid="latch-view-Connect">
      <ul className="latch-list" aria-label={t('view.Connect')}>
        {wallets.map((wallet) => (
          <WalletListItem key={wallet.id} wallet={wallet} onSelect={connect} />
        ))}
        <li>
          <button type="button" className="latch-list-item" data-testid="latch-all-wallets" onClick={() => latch.push('AllWallets')}>
            <span className="latch-wallet-image latch-all-wallets-icon" aria-hidden="true" />
            <span className="latch-list-item-name">{t('connect.allWallets')}</span>
            {count !== null ? (
              <span className="latch-tag" data-testid="latch-all-wallets-count">
                {displayCount(count)}
              </span>
            ) : null}
          </button>
        </li>
      </ul>
    </div>
  )
}
