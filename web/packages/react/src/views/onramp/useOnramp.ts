import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { loadPayModule, type OnrampState, type PayModule, type PayState } from '@latchkit/core'
import { useLatchInstance } from '../../context'

/** usePayModule is core's pay module (the on-ramp included, as `onramp`) once its chunk loaded, undefined until then. */
export function usePayModule(): PayModule | undefined {
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
  return mod
}

/** The on-ramp part of the pay module. */
export type OnrampModule = PayModule['onramp']

/** useOnrampModule is core's on-ramp actions once loaded. */
export const useOnrampModule = (): OnrampModule | undefined => usePayModule()?.onramp

const noSubscription = () => () => {}

/** useOnrampState is the instance's on-ramp slice, undefined until the module loaded. */
export function useOnrampState(onramp: OnrampModule | undefined): OnrampState | undefined {
  const latch = useLatchInstance()
  return useSyncExternalStore(
    useCallback((onChange: () => void) => (onramp ? onramp.watchOnrampState(latch, onChange) : noSubscription()), [latch, onramp]),
    () => onramp?.getOnrampState(latch),
    () => undefined,
  )
}

/** usePayState is the instance's pay slice, undefined until the module loaded. */
export function usePayState(pay: PayModule | undefined): PayState | undefined {
  const latch = useLatchInstance()
  return useSyncExternalStore(
    useCallback((onChange: () => void) => (pay ? pay.watchPayState(latch, onChange) : noSubscription()), [latch, pay]),
    () => pay?.getPayState(latch),
    () => undefined,
  )
}

/** openCheckoutWindow opens the checkout popup in the click's handler, where browsers allow it. */
export function openCheckoutWindow(): Window | null {
  return typeof window === 'undefined' ? null : window.open('', 'latch-onramp', 'popup,width=480,height=720')
}
