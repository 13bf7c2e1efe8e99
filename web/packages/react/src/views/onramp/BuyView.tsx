import { useEffect, useId } from 'react'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useLocaleNumbers } from '../../hooks/useLocaleNumbers'
import { useModalT } from '../../components/LatchModal/strings'
import { useOnrampT } from './strings'
import { openCheckoutWindow, useOnrampModule, useOnrampState } from './useOnramp'

/** Delay between the last change of the form and the quote (spec §9's search delay). */
const QUOTE_DEBOUNCE_MS = 300

/**
 * The Buy panel (OnRampProviders): the asset and its network, the fiat
 * currency and method with the method's limits, the amount with a live
 * quote (loading, or latchd's stored error), the provider when there are
 * several; Buy opens the checkout in a popup and follows the order until
 * the balances refresh.
 */
export function BuyView() {
  const latch = useLatchInstance()
  const t = useOnrampT()
  const tc = useModalT()
  const { decimal } = useLocaleNumbers()
  const onramp = useOnrampModule()
  const s = useOnrampState(onramp)
  const connected = useLatchSelector((state) => state.account.status === 'connected')
  const ids = { asset: useId(), network: useId(), amount: useId(), currency: useId(), method: useId(), provider: useId(), error: useId() }

  useEffect(() => {
    if (onramp) void onramp.loadOnrampOptions(latch)
  }, [onramp, latch])

  const amount = s?.amount ?? ''
  const key = s ? [s.amount, s.network, s.purchaseCurrency, s.paymentCurrency, s.paymentMethod, s.provider].join('|') : ''
  useEffect(() => {
    if (!onramp || !s?.options || amount.trim() === '' || s.checkout?.status === 'opening' || s.checkout?.status === 'pending') return
    const controller = new AbortController()
    const timer = setTimeout(() => void onramp.fetchOnrampQuote(latch, { signal: controller.signal }), QUOTE_DEBOUNCE_MS)
    return () => (clearTimeout(timer), controller.abort())
    // The quote follows the form's values (key), not each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [onramp, latch, key, Boolean(s?.options)])

  if (!onramp || !s?.options) return <span className="latch-spinner latch-list-spinner" aria-hidden="true" />
  const set = onramp.setOnrampForm
  const currency = s.options.paymentCurrencies.find((c) => c.id === s.paymentCurrency)
  const asset = s.options.purchaseCurrencies.find((c) => c.id === s.purchaseCurrency)
  const limits = onramp.methodLimits(currency, s.paymentMethod)
  const busy = s.checkout?.status === 'opening' || s.checkout?.status === 'pending' || s.checkout?.status === 'processing'
  const symbol = asset?.symbol ?? s.purchaseCurrency
  const error = s.checkout?.status === 'failed' ? s.checkout.error : s.error

  const buy = () => {
    const popup = openCheckoutWindow()
    onramp.startOnrampCheckout(latch, { popup }).catch(() => {}) // the failure is in the state
  }

  return (
    <form
      className="latch-view latch-onramp"
      data-testid="latch-view-OnRampProviders"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        buy()
      }}
    >
      {s.fallback ? <p className="latch-subtitle" data-testid="latch-onramp-fallback">{t('buy.fallback')}</p> : null}
      <label className="latch-field-label" htmlFor={ids.asset}>
        {t('buy.asset')}
      </label>
      <select id={ids.asset} className="latch-input" data-testid="latch-onramp-asset" value={s.purchaseCurrency} disabled={busy} onChange={(e) => set(latch, { purchaseCurrency: e.target.value })}>
        {s.options.purchaseCurrencies.map((c) => (
          <option key={c.id} value={c.id}>
            {c.symbol} — {c.name}
          </option>
        ))}
      </select>
      <label className="latch-field-label" htmlFor={ids.network}>
        {t('buy.network')}
      </label>
      <select id={ids.network} className="latch-input" data-testid="latch-onramp-network" value={s.network ?? ''} disabled={busy} onChange={(e) => set(latch, { network: e.target.value })}>
        {asset?.networks.map((n) => (
          <option key={n.name} value={n.name}>
            {n.display_name}
          </option>
        ))}
      </select>

      <label className="latch-field-label" htmlFor={ids.amount}>
        {tc('send.amount')}
      </label>
      <div className="latch-input-row">
        <input
          id={ids.amount}
          className="latch-input"
          data-testid="latch-onramp-amount"
          dir="ltr"
          inputMode="decimal"
          autoComplete="off"
          placeholder={decimal(limits?.min ?? '0')}
          value={amount}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(e) => set(latch, { amount: e.target.value })}
        />
        <select aria-label={t('buy.currency')} className="latch-input" data-testid="latch-onramp-currency" value={s.paymentCurrency} disabled={busy} onChange={(e) => set(latch, { paymentCurrency: e.target.value })}>
          {s.options.paymentCurrencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.id}
            </option>
          ))}
        </select>
      </div>
      {limits ? (
        <span className="latch-subtitle" data-testid="latch-onramp-limits">
          {t('buy.limits', { min: decimal(limits.min), max: decimal(limits.max), currency: s.paymentCurrency })}
        </span>
      ) : null}
      <label className="latch-field-label" htmlFor={ids.method}>
        {t('buy.method')}
      </label>
      <select id={ids.method} className="latch-input" data-testid="latch-onramp-method" value={s.paymentMethod} disabled={busy} onChange={(e) => set(latch, { paymentMethod: e.target.value })}>
        {currency?.payment_method_limits.map((l) => (
          <option key={l.id} value={l.id}>
            {l.id === 'card' || l.id === 'ach_bank_account' ? t(`method.${l.id}`) : l.id}
          </option>
        ))}
      </select>
      {s.providers.length > 1 ? (
        <>
          <label className="latch-field-label" htmlFor={ids.provider}>
            {t('buy.provider')}
          </label>
          <select id={ids.provider} className="latch-input" data-testid="latch-onramp-provider" value={s.provider ?? s.providers[0]} disabled={busy} onChange={(e) => set(latch, { provider: e.target.value })}>
            {s.providers.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </>
      ) : null}

      <div className="latch-onramp-quote" aria-live="polite">
        {s.quotesLoading ? (
          <span className="latch-subtitle" data-testid="latch-onramp-quoting">
            {t('buy.quoting')}
          </span>
        ) : s.quote ? (
          <>
            <strong data-testid="latch-onramp-quote">{t('buy.youGet', { amount: decimal(s.quote.purchaseAmount.amount), symbol: s.quote.purchaseAmount.currency })}</strong>
            <span className="latch-subtitle">{t('buy.fees', { fees: decimal(s.quote.fees.amount), network: decimal(s.quote.networkFee.amount), currency: s.quote.fees.currency })}</span>
          </>
        ) : null}
      </div>

      {s.checkout && s.checkout.status !== 'failed' ? (
        <p className="latch-subtitle" data-testid="latch-onramp-status" role="status">
          {s.checkout.status === 'opening'
            ? t('buy.opening')
            : s.checkout.status === 'pending'
              ? t('buy.pending')
              : s.checkout.status === 'processing'
                ? t('buy.processing', { symbol })
                : t('buy.completed', { amount: decimal(s.checkout.order?.purchaseAmount ?? ''), symbol: s.checkout.order?.purchaseCurrency ?? symbol })}
        </p>
      ) : null}
      {error ? (
        <p id={ids.error} className="latch-error-text" role="alert" data-testid="latch-onramp-error">
          {error}
        </p>
      ) : null}
      {!connected ? <p className="latch-subtitle">{t('buy.connect')}</p> : null}
      <button type="submit" className="latch-primary-button" data-testid="latch-onramp-buy" disabled={!connected || busy || !s.quote || s.quotesLoading}>
        {busy ? <span className="latch-spinner" aria-hidden="true" /> : null}
        {t('buy.submit', { symbol })}
      </button>
    </form>
  )
}
