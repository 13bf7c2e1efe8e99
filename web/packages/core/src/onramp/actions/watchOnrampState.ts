import type { Latch } from '../../latch-types'
import { initialOnrampState, type OnrampState } from '../state'

/** getOnrampState is the instance's on-ramp slice (its initial state before any on-ramp action ran). */
export function getOnrampState(latch: Latch): OnrampState {
  return latch._internal.root.getState().onramp ?? initialOnrampState
}

/** watchOnrampState calls onChange with every new on-ramp state; returns the unsubscribe function. */
export function watchOnrampState(latch: Latch, onChange: (state: OnrampState) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.onramp !== prev.onramp) onChange(next.onramp ?? initialOnrampState)
  })
}
