import type { LatchWallet } from '@latchkit/core'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from './WalletImage'

export type WalletListItemProps = { wallet: LatchWallet; onSelect: (wallet: LatchWallet) => void; disabled?: boolean }

/** One wallet row: icon, name, and an "installed" or "recent" tag. */
export function WalletListItem({ wallet, onSelect, disabled }: WalletListItemProps) {
  const t = useModalT()
  const tag = wallet.kind === 'recent' ? t('connect.recent') : wallet.installed ? t('connect.installed') : null
  return (
    <li>
      <button type="button" className="latch-list-item" data-testid={`latch-wallet-${wallet.id}`} aria-disabled={disabled || undefined} onClick={() => onSelect(wallet)}>
        <WalletImage src={wallet.imageUrl} name={wallet.name} />
        <span className="latch-list-item-name">{wallet.name}</span>
        {tag ? (
          <span className="latch-tag" data-testid="latch-wallet-tag">
            {tag}
          </span>
        ) : null}
      </button>
    </li>
  )
}
