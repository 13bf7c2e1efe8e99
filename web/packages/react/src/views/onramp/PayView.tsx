import { useEffect } from 'react'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useLocaleNumbers } from '../../hooks/useLocaleNumbers'
import { useOnrampT } from './strings'
import { openCheckoutWindow, usePayModule, usePayState } from './useOnramp'

/** 0x1234…5678: the address shortened, written here so this chunk imports none of the first load's helpers. */
const short = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`

/**
 * The Pay view (latch.pay): the request with its amount and recipient fixed,
 * the connected account's balance of the asset; Pay sends it from the
 * wallet through the send path. When the balance lacks part of it, Buy
 * first buys the missing amount through the on-ramp (popup checkout), then
 * Pay completes.
 */
export function PayView() {
  const latch = useLatchInstance()
  const t = useOnrampT()
  const { decimal } = useLocaleNumbers()
  const pay = usePayModule()
  const s = usePayState(pay)
  const { address, networks } = useLatchSelector((state) => ({ address: state.account.status === 'connected' ? state.account.address : undefined, networks: state.networks }))

  // The balance is read when the view opens and when the account changes.
  useEffect(() => {
    if (pay && address && s?.request) void pay.checkPayBalance(latch)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pay, latch, address, s?.request])

  if (!pay || !s) return <span className="latch-spinner latch-list-spinner" aria-hidden="true" />
  const r = s.request
  if (!r) return <p className="latch-view latch-subtitle">{t('pay.success')}</p>
  const network = networks.find((n) => n.id === r.chainId)?.name ?? `eip155:${r.chainId}`
  const busy = s.status === 'paying' || s.status === 'buying' || s.status === 'checking'

  return (
    <div className="latch-view latch-pay" data-testid="latch-view-Pay">
      <strong className="latch-pay-amount" data-testid="latch-pay-summary">
        {t('pay.summary', { amount: decimal(r.amount), asset: r.asset })}
      </strong>
      <span className="latch-subtitle" data-testid="latch-pay-recipient" title={r.recipient}>
        {t('pay.to', { recipient: short(r.recipient) })}
      </span>
      <span className="latch-subtitle">{t('pay.network', { network })}</span>

      {!address ? (
        <>
          <p className="latch-subtitle">{t('pay.connect')}</p>
          <button type="button" className="latch-primary-button" data-testid="latch-pay-connect" onClick={() => latch.push('Connect')}>
            {t('pay.connectButton')}
          </button>
        </>
      ) : (
        <>
          {s.status === 'checking' ? <span className="latch-subtitle">{t('pay.checking')}</span> : null}
          {s.balance !== undefined ? (
            <span className="latch-subtitle" data-testid="latch-pay-balance">
              {t('pay.balance', { balance: decimal(s.balance), asset: r.asset })}
            </span>
          ) : null}
          {s.status === 'insufficient' || (s.status === 'buying' && s.missing) ? (
            <>
              <span className="latch-subtitle" data-testid="latch-pay-missing">
                {t('pay.missing', { missing: decimal(s.missing ?? ''), asset: r.asset })}
              </span>
              <button
                type="button"
                className="latch-primary-button"
                data-testid="latch-pay-buy"
                disabled={busy}
                onClick={() => void pay.buyMissing(latch, openCheckoutWindow())}
              >
                {s.status === 'buying' ? <span className="latch-spinner" aria-hidden="true" /> : null}
                {s.status === 'buying' ? t('pay.buying', { asset: r.asset }) : t('pay.buy', { asset: r.asset })}
              </button>
            </>
          ) : null}
          {s.error ? (
            <p className="latch-error-text" role="alert" data-testid="latch-pay-error">
              {s.error}
            </p>
          ) : null}
          {s.status === 'success' && s.result ? (
            <p className="latch-subtitle" data-testid="latch-pay-success">
              {t('pay.success')}
            </p>
          ) : (
            <button
              type="button"
              className="latch-primary-button"
              data-testid="latch-pay-submit"
              disabled={busy || s.status === 'insufficient'}
              onClick={() => void pay.confirmPay(latch)}
            >
              {s.status === 'paying' ? <span className="latch-spinner" aria-hidden="true" /> : null}
              {s.status === 'paying' ? t('pay.paying') : t('pay.submit')}
            </button>
          )}
        </>
      )}
      <button type="button" className="latch-secondary-button" data-testid="latch-pay-cancel" disabled={s.status === 'paying'} onClick={() => pay.cancelPay(latch)}>
        {t('pay.cancel')}
      </button>
    </div>
  )
}
