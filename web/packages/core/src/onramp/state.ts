// The on-ramp slice of an instance's root store: the options, the form
// (currencies, network, amount, provider), the quote with its loading flag
// and stored error (spec §4), and the checkout in progress.
import { LATCH_VERSION } from '../apiBase'
import type { Latch } from '../latch-types'
import { createOnrampClient, type OnrampClient, type OnrampOptions, type OnrampOrder, type OnrampQuote } from './client'
import { DEFAULT_PAYMENT_CURRENCY, DEFAULT_PAYMENT_METHOD, DEFAULT_PURCHASE_CURRENCY } from './rules'

/** Where a checkout stands: the popup is opening, then the order's own status. */
export type CheckoutStatus = 'opening' | OnrampOrder['status']

/** The checkout in progress or last finished. */
export interface OnrampCheckout {
  readonly status: CheckoutStatus
  readonly orderId?: string | undefined
  readonly url?: string | undefined
  /** The order as latchd last reported it. */
  readonly order?: OnrampOrder | undefined
  /** Why it failed, for the view. */
  readonly error?: string | undefined
}

/** The on-ramp slice. */
export interface OnrampState {
  readonly options: OnrampOptions | undefined
  readonly optionsLoading: boolean
  /** The options are the built-in ones: latchd's provider failed, none is configured, or latchd could not be reached (spec §7). */
  readonly fallback: boolean
  /** latchd's providers, the default first (spec §5: emptied unless an array of strings). */
  readonly providers: readonly string[]
  /** The provider picked; undefined is latchd's default. */
  readonly provider: string | undefined
  readonly paymentCurrency: string
  readonly paymentMethod: string
  readonly purchaseCurrency: string
  /** The purchase currency's network name. */
  readonly network: string | undefined
  /** The fiat amount as typed. */
  readonly amount: string
  readonly quote: OnrampQuote | undefined
  /** Set while a quote is fetched (spec §4). */
  readonly quotesLoading: boolean
  /** The last quote's failure, stored for the view (spec §4). */
  readonly error: string | undefined
  readonly checkout: OnrampCheckout | undefined
}

export const initialOnrampState: OnrampState = {
  options: undefined,
  optionsLoading: false,
  fallback: false,
  providers: [],
  provider: undefined,
  paymentCurrency: DEFAULT_PAYMENT_CURRENCY,
  paymentMethod: DEFAULT_PAYMENT_METHOD,
  purchaseCurrency: DEFAULT_PURCHASE_CURRENCY,
  network: undefined,
  amount: '',
  quote: undefined,
  quotesLoading: false,
  error: undefined,
  checkout: undefined,
}

/** Reads and patches the on-ramp slice. */
export interface OnrampSlice {
  getState(): OnrampState
  setState(patch: Partial<OnrampState>): void
}

/**
 * onrampSlice is the instance's on-ramp slice of the root store, created on
 * the first write; written on the root directly, as the names slice is, so
 * this chunk imports none of the first load's store helpers.
 */
export function onrampSlice(latch: Latch): OnrampSlice {
  const { root } = latch._internal
  const getState = (): OnrampState => root.getState().onramp ?? initialOnrampState
  return { getState, setState: (patch) => root.setState({ onramp: { ...getState(), ...patch } }) }
}

/** onrampClient is a client of the instance's latchd on-ramp routes. */
export function onrampClient(latch: Latch): OnrampClient {
  const { opts } = latch._internal
  return createOnrampClient({ apiUrl: opts.apiUrl, projectId: opts.projectId, sdkVersion: `react-${LATCH_VERSION}` })
}
