// The pay module (issue 22): latch.pay's request, the Pay view's actions
// and the buy step. A lazy chunk: loadPayModule brings it.
export { cancelPay, checkPayBalance, confirmPay, pay, PAY_MESSAGES } from './pay'
export { buyMissing } from './buy'
export { getPayState, watchPayState } from './actions'
export { initialPayState } from './state'
export type { PayRequest, PayResult, PayState, PayStatus } from './types'
// The on-ramp (the Buy panel's form and checkout): in this chunk, as the buy step uses it.
export * as onramp from '../onramp/index'
