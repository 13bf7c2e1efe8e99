// The on-ramp module (spec §2, §3, §4, §5, §7, §9; api-shapes §3.7): latchd's
// on-ramp client, the Buy form's slice and its actions. Part of the pay
// module's lazy chunk: loadPayModule brings it (as `onramp`).
export { createOnrampClient, OnrampRequestError } from './client'
export type { OnrampClient, OnrampOptions, OnrampOrder, OnrampQuote, PaymentCurrency, PurchaseCurrency, QuoteRequest } from './client'
export { amountError, defaultOnrampOptions, methodLimits, ONRAMP_PROVIDERS, onrampProviders } from './rules'
export { initialOnrampState, type CheckoutStatus, type OnrampCheckout, type OnrampState } from './state'
export { loadOnrampOptions } from './actions/loadOnrampOptions'
export { setOnrampForm, type OnrampForm } from './actions/setOnrampForm'
export { fetchOnrampQuote } from './actions/fetchOnrampQuote'
export { startOnrampCheckout, ORDER_POLL_MS, type CheckoutWindow, type StartCheckoutOptions } from './actions/startOnrampCheckout'
export { getOnrampState, watchOnrampState } from './actions/watchOnrampState'
