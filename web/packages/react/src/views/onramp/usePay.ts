// usePay: latch.pay for React. Self-contained (it shares no module with the
// Buy and Pay views' chunk), so the package's entry does not split that chunk.
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { getPayResult, loadPayModule, type PayModule, type PayRequest, type PayResult, type PayState } from '@latchkit/core'
import { useLatchInstance } from '../../context'

/** usePay's return: open a payment, its state, and the last result. */
export interface UsePayReturnType {
  /** Opens the Pay view (latch.pay); resolves with the transaction, rejects on a refused, failed or cancelled payment. */
  pay(request: PayRequest): Promise<PayResult>
  /** Where the Pay view stands; undefined until the pay module loaded. */
  state: PayState | undefined
  /** The last completed payment (getPayResult). */
  result: PayResult | undefined
}

const noSubscription = () => () => {}

/** usePay is latch.pay for React: the call, the Pay view's state and the last result. */
export function usePay(): UsePayReturnType {
  const latch = useLatchInstance()
  const [mod, setMod] = useState<PayModule>()
  useEffect(() => {
    let live = true
    loadPayModule().then(
      (m) => live && setMod(() => m),
      (error: unknown) => console.error('[latch] could not load the pay module', error),
    )
    return () => {
      live = false
    }
  }, [])
  const state = useSyncExternalStore(
    useCallback((onChange: () => void) => (mod ? mod.watchPayState(latch, onChange) : noSubscription()), [latch, mod]),
    () => mod?.getPayState(latch),
    () => undefined,
  )
  const pay = useCallback((request: PayRequest) => latch.pay(request), [latch])
  return useMemo(() => ({ pay, state, result: state?.result ?? getPayResult(latch) }), [pay, state, latch])
}
