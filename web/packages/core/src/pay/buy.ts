// The Pay view's buy step: when the balance lacks part of the payment, the
// on-ramp buys at least the missing amount of the asset, then the balance
// is read again.
import type { Latch } from '../latch-types'
import { lookup, type MessageParams } from '../messages'
import { fetchOnrampQuote } from '../onramp/actions/fetchOnrampQuote'
import { loadOnrampOptions } from '../onramp/actions/loadOnrampOptions'
import { setOnrampForm } from '../onramp/actions/setOnrampForm'
import { startOnrampCheckout, type CheckoutWindow } from '../onramp/actions/startOnrampCheckout'
import { methodLimits } from '../onramp/rules'
import { onrampSlice } from '../onramp/state'
import { checkPayBalance } from './pay'
import { paySlice } from './state'
import { payFlowStrings, type PayFlowStringKey } from './strings'

/** The fiat amount that buys at least `missing` at a quote's rate, to the cent, and within the method's limits. */
function fiatFor(missing: number, rate: number, min: number, max: number): string | undefined {
  // A 1% margin covers the rate moving between the quote and the checkout.
  const fiat = Math.max(min, Math.ceil((missing / rate) * 1.01 * 100) / 100)
  return fiat > max ? undefined : fiat.toFixed(2)
}

/**
 * buyMissing buys the payment's missing amount through the on-ramp: the
 * asset on the payment's network, priced first to learn the rate, then a
 * checkout in popup for enough fiat (at least the method's minimum). Resolves
 * once the order completed and the balance was read again.
 */
export async function buyMissing(latch: Latch, popup?: CheckoutWindow | null): Promise<void> {
  const pay = paySlice(latch)
  const { request, missing } = pay.getState()
  if (!request || !missing) return
  pay.setState({ status: 'buying', error: undefined })
  const { catalogue, locale } = latch.getState()
  const fail = (key: PayFlowStringKey, params?: MessageParams) => new Error(lookup(payFlowStrings, key, params, catalogue, locale))
  try {
    const state = await loadOnrampOptions(latch)
    const currency = state.options?.purchaseCurrencies.find((c) => c.symbol.toLowerCase() === request.asset.toLowerCase() || c.id === request.asset)
    const network = currency?.networks.find((n) => n.chain_id === String(request.chainId))
    if (!currency || !network) throw fail('pay.cannotBuy', { asset: request.asset })
    const limits = methodLimits(state.options?.paymentCurrencies.find((c) => c.id === state.paymentCurrency), state.paymentMethod)
    if (!limits) throw fail('pay.noPaymentMethod')
    // The rate from a quote at the method's minimum.
    setOnrampForm(latch, { purchaseCurrency: currency.id, network: network.name, amount: limits.min })
    const probe = await fetchOnrampQuote(latch)
    if (!probe) throw onrampSlice(latch).getState().error ? new Error(onrampSlice(latch).getState().error) : fail('pay.noQuote')
    const rate = Number(probe.purchaseAmount.amount) / Number(probe.paymentTotal.amount)
    const fiat = fiatFor(Number(missing), rate, Number(limits.min), Number(limits.max))
    if (!fiat) throw fail('pay.buyOutOfRange', { min: limits.min, max: limits.max, currency: state.paymentCurrency })
    setOnrampForm(latch, { amount: fiat })
    await startOnrampCheckout(latch, { popup })
    // latchd re-reads the bought token rather than answering its cached balance.
    await checkPayBalance(latch, network.contract_address ? [`eip155:${request.chainId}:${network.contract_address}`] : [])
  } catch (error) {
    pay.setState({ status: 'insufficient', error: error instanceof Error ? error.message : String(error) })
  }
}
