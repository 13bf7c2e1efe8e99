// The pay slice of an instance's root store, and the pending promise of
// latch.pay, kept per instance.
import type { Latch } from '../latch-types'
import type { PayResult, PayState } from './types'

export const initialPayState: PayState = { request: undefined, status: 'idle', balance: undefined, missing: undefined, result: undefined, error: undefined }

/** Reads and patches the pay slice (written on the root directly, as the names slice is). */
export function paySlice(latch: Latch) {
  const { root } = latch._internal
  const getState = (): PayState => root.getState().pay ?? initialPayState
  return { getState, setState: (patch: Partial<PayState>) => root.setState({ pay: { ...getState(), ...patch } }) }
}

/** The settle functions of an instance's pending latch.pay promise. */
interface Pending {
  resolve(result: PayResult): void
  reject(error: Error): void
}

// Keyed by instance: two Latch instances on a page never share a payment.
const pending = new WeakMap<Latch, Pending>()

/** settlePay resolves or rejects the instance's pending payment, if any. */
export function settlePay(latch: Latch, outcome: { result: PayResult } | { error: Error }): void {
  const p = pending.get(latch)
  if (!p) return
  pending.delete(latch)
  if ('result' in outcome) p.resolve(outcome.result)
  else p.reject(outcome.error)
}

/** awaitPay makes the instance's pending payment promise (a previous one is rejected). */
export function awaitPay(latch: Latch): Promise<PayResult> {
  settlePay(latch, { error: new Error('Replaced by a new payment request') })
  return new Promise<PayResult>((resolve, reject) => pending.set(latch, { resolve, reject }))
}
