import type { Latch } from '../latch-types'
import { initialPayState } from './state'
import type { PayState } from './types'

/** getPayState is the instance's pay slice. */
export function getPayState(latch: Latch): PayState {
  return latch._internal.root.getState().pay ?? initialPayState
}

/** watchPayState calls onChange with every new pay state; returns the unsubscribe function. */
export function watchPayState(latch: Latch, onChange: (state: PayState) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.pay !== prev.pay) onChange(next.pay ?? initialPayState)
  })
}
