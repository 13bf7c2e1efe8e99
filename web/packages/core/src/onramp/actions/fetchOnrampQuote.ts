import type { Latch } from '../../latch-types'
import type { OnrampQuote } from '../client'
import { amountError } from '../rules'
import { onrampClient, onrampSlice } from '../state'

/**
 * fetchOnrampQuote prices the Buy form. An amount the form can already tell
 * is wrong (not a decimal, outside the method's limits) stores its message
 * without asking latchd. Otherwise quotesLoading is set while latchd answers
 * and the quote, or the failure's message, is stored (spec §4); a failure is
 * never replaced by a made-up quote. A quote for values the form no longer
 * holds is dropped.
 */
export async function fetchOnrampQuote(latch: Latch, init?: { signal?: AbortSignal }): Promise<OnrampQuote | undefined> {
  const slice = onrampSlice(latch)
  const form = slice.getState()
  const currency = form.options?.paymentCurrencies.find((c) => c.id === form.paymentCurrency)
  const invalid = amountError(form.amount, currency, form.paymentMethod, latch)
  if (invalid) {
    slice.setState({ quote: undefined, error: invalid, quotesLoading: false })
    return undefined
  }
  slice.setState({ quotesLoading: true, error: undefined })
  const address = latch.getState().account.address
  try {
    const quote = await onrampClient(latch).quote(
      {
        purchaseCurrency: form.purchaseCurrency,
        paymentCurrency: form.paymentCurrency,
        amount: form.amount.trim(),
        network: form.network ?? '',
        paymentMethod: form.paymentMethod,
        provider: form.provider,
        address: address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address : undefined,
      },
      init,
    )
    if (stale(slice.getState(), form)) return undefined
    slice.setState({ quote, quotesLoading: false })
    return quote
  } catch (error) {
    if (stale(slice.getState(), form)) return undefined
    slice.setState({ quote: undefined, quotesLoading: false, error: error instanceof Error ? error.message : String(error) })
    return undefined
  }
}

const stale = (now: { amount: string; network: string | undefined; purchaseCurrency: string; paymentCurrency: string; paymentMethod: string; provider: string | undefined }, asked: typeof now): boolean =>
  now.amount !== asked.amount ||
  now.network !== asked.network ||
  now.purchaseCurrency !== asked.purchaseCurrency ||
  now.paymentCurrency !== asked.paymentCurrency ||
  now.paymentMethod !== asked.paymentMethod ||
  now.provider !== asked.provider
