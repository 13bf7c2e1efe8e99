import type { Latch } from '../../latch-types'
import type { EmbeddedState } from '../state'

/** watchEmbeddedState calls onChange with every new e-mail wallet state; returns the unsubscribe function. */
export function watchEmbeddedState(latch: Latch, onChange: (state: EmbeddedState | undefined) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.embedded !== prev.embedded) onChange(next.embedded)
  })
}
