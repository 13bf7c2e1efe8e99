import type { Latch } from '../../latch-types'
import type { OnrampOrder } from '../client'
import { amountError } from '../rules'
import { onrampClient, onrampSlice, type OnrampCheckout } from '../state'

/** How often a checkout's order is asked for its status. */
export const ORDER_POLL_MS = 1500
/** How long a checkout is followed before the widget gives up watching (the order stays on latchd). */
export const ORDER_WATCH_MS = 15 * 60_000

/** A window the checkout page loads in: a popup opened by the click (browsers block one opened later). */
export interface CheckoutWindow {
  location: { href: string }
  close(): void
  readonly closed?: boolean
}

/** Options of startOnrampCheckout. */
export interface StartCheckoutOptions {
  /** The popup to load the checkout in, opened in the click's handler; default: window.open now. */
  readonly popup?: CheckoutWindow | null | undefined
  readonly pollMs?: number
  readonly signal?: AbortSignal
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const id = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(id), reject(signal.reason)), { once: true })
  })

/**
 * startOnrampCheckout buys what the Buy form holds for the connected
 * account: latchd records an order and answers the provider's checkout URL,
 * which loads in the popup; the order is then polled until it completes or
 * fails. On completion the account's balances refresh (the bought token is
 * re-read on latchd) and a success toast shows; the popup closes. Resolves
 * with the completed order; rejects with the reason when it fails.
 */
export async function startOnrampCheckout(latch: Latch, options: StartCheckoutOptions = {}): Promise<OnrampOrder> {
  const slice = onrampSlice(latch)
  const form = slice.getState()
  const set = (checkout: OnrampCheckout) => slice.setState({ checkout })
  const popup = options.popup !== undefined ? options.popup : typeof window !== 'undefined' ? window.open('', 'latch-onramp', 'popup,width=480,height=720') : null
  const fail = (message: string): never => {
    set({ ...slice.getState().checkout, status: 'failed', error: message })
    throw new Error(message)
  }
  try {
    const { account } = latch.getState()
    if (account.status !== 'connected' || !account.address) fail('Connect a wallet to buy crypto')
    const currency = form.options?.paymentCurrencies.find((c) => c.id === form.paymentCurrency)
    const invalid = amountError(form.amount, currency, form.paymentMethod)
    if (invalid) fail(invalid)
    set({ status: 'opening' })
    const client = onrampClient(latch)
    let started: { url: string; orderId: string }
    try {
      started = await client.checkout({
        purchaseCurrency: form.purchaseCurrency,
        paymentCurrency: form.paymentCurrency,
        amount: form.amount.trim(),
        network: form.network ?? '',
        paymentMethod: form.paymentMethod,
        provider: form.provider,
        address: account.address as string,
      })
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error))
    }
    started = { ...started, url: withDevCheckoutLocale(started.url, latch.getState().locale) }
    if (popup && !popup.closed) popup.location.href = started.url
    else if (typeof window !== 'undefined') window.open(started.url, 'latch-onramp', 'popup,width=480,height=720')
    set({ status: 'pending', orderId: started.orderId, url: started.url })

    const deadline = Date.now() + ORDER_WATCH_MS
    for (;;) {
      await sleep(options.pollMs ?? ORDER_POLL_MS, options.signal)
      let order: OnrampOrder
      try {
        order = await client.order(started.orderId)
      } catch {
        if (Date.now() > deadline) fail('The purchase is taking long: check its status later')
        continue // a missed poll is retried
      }
      set({ status: order.status, orderId: order.id, url: started.url, order, error: order.error })
      if (order.status === 'completed') {
        completed(latch, order)
        return order
      }
      if (order.status === 'failed') return fail(order.error || 'The purchase failed')
      if (Date.now() > deadline) fail('The purchase is taking long: check its status later')
    }
  } finally {
    if (popup && !popup.closed) popup.close()
  }
}

/** completed refreshes the balances the order changed and says so. */
function completed(latch: Latch, order: OnrampOrder): void {
  const { accountData, toasts } = latch._internal
  const chainId = Number(order.chainId)
  const token = onrampSlice(latch)
    .getState()
    .options?.purchaseCurrencies.find((c) => c.symbol === order.purchaseCurrency)
    ?.networks.find((n) => n.name === order.network)?.contract_address
  if (order.txHash && Number.isSafeInteger(chainId)) {
    accountData.notifyTransaction({ hash: order.txHash, chainId, tokens: token ? [`eip155:${chainId}:${token}`] : [] })
  }
  toasts.showSuccess(`${order.purchaseAmount} ${order.purchaseCurrency} bought`)
}

/** latchd dev's test checkout page (internal/onramp's DevCheckoutPath): it shows itself in its locale parameter. */
const DEV_CHECKOUT_PATH = /\/dev\/onramp\/checkout\/[^/]+$/

/**
 * withDevCheckoutLocale adds the widget's locale to the URL of latchd dev's
 * checkout page. A real provider's URL is left as latchd gave it: its
 * parameters are the provider's.
 */
export function withDevCheckoutLocale(url: string, locale: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  if (!DEV_CHECKOUT_PATH.test(parsed.pathname)) return url
  parsed.searchParams.set('locale', locale)
  return parsed.toString()
}
