import { loadSendController, type AccountModule, type TokenBalance } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useAccountModels } from '../../hooks/useAccountModels'
import { useLatchBalances } from '../../hooks/useLatchBalances'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from '../connect/WalletImage'

/** One balance: icon, name, quantity with 3 decimals and its USD value with 2 (spec §9). */
function TokenRow({ balance, models, onSelect }: { balance: TokenBalance; models: AccountModule; onSelect: (() => void) | undefined }) {
  const { balanceFiatValue, formatFiat, formatQuantity } = models
  const content = (
    <>
      <WalletImage src={balance.iconUrl || undefined} name={balance.symbol} size={28} />
      <span className="latch-token-names">
        <span className="latch-list-item-name">{balance.name}</span>
        <span className="latch-token-quantity" data-testid="latch-token-quantity" dir="ltr">
          {formatQuantity(balance.quantity.numeric)} {balance.symbol}
        </span>
      </span>
      <span className="latch-token-value" data-testid="latch-token-value">
        {formatFiat(balanceFiatValue(balance))}
      </span>
    </>
  )
  return (
    <li data-testid={`latch-token-${balance.symbol}`}>
      {onSelect ? (
        <button type="button" className="latch-list-item latch-token-row" onClick={onSelect}>
          {content}
        </button>
      ) : (
        <div className="latch-list-item latch-token-row">{content}</div>
      )}
    </li>
  )
}

/** The Tokens tab: the total in USD, then each balance; a click on one starts a send of it. */
export function TokensTab() {
  const latch = useLatchInstance()
  const t = useModalT()
  const sendEnabled = useLatchSelector((s) => s.features.send)
  // Buy and Swap are the Account view's actions (features.walletFeaturesOrder).
  const { balances, totalValue, isLoading, balanceLoading, error, refetch } = useLatchBalances()
  const models = useAccountModels()

  const startSend = async (token: TokenBalance) => {
    // Send is a lazy panel: its code loads on this click, not with the Account view.
    ;(await loadSendController(latch)).setToken(token)
    latch.push('WalletSend')
  }

  if (isLoading || !models) {
    return <span className="latch-spinner latch-list-spinner" role="status" aria-label={t('account.loadingBalances')} data-testid="latch-tokens-loading" />
  }
  if (error && !balances) {
    // Spec §8: the fetch failed (the toast said so); nothing is known, so nothing is claimed.
    return (
      <div className="latch-empty" data-testid="latch-tokens-error">
        <p className="latch-title" data-testid="latch-tokens-total">
          {models.formatFiat(0)}
        </p>
        <p className="latch-subtitle">{t('account.balanceUnavailable')}</p>
        <button type="button" className="latch-secondary-button" onClick={refetch} disabled={balanceLoading}>
          {t('account.retry')}
        </button>
      </div>
    )
  }
  const list = balances ?? []
  return (
    <div className="latch-tokens" aria-busy={balanceLoading || undefined}>
      <div className="latch-tokens-total">
        <span className="latch-subtitle">{t('account.totalBalance')}</span>
        <span className="latch-title" data-testid="latch-tokens-total">
          {models.formatFiat(totalValue ?? 0)}
        </span>
      </div>
      {list.length === 0 ? (
        <div className="latch-empty" data-testid="latch-tokens-empty">
          <p className="latch-title">{t('account.noTokens')}</p>
          <p className="latch-subtitle">{t('account.noTokensDescription')}</p>
        </div>
      ) : (
        <ul className="latch-list latch-token-list" aria-label={t('account.tabTokens')}>
          {list.map((b) => (
            <TokenRow key={`${b.chainId}:${b.address ?? 'native'}`} balance={b} models={models} onSelect={sendEnabled ? () => void startSend(b) : undefined} />
          ))}
        </ul>
      )}
    </div>
  )
}
