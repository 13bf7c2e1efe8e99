import type { Latch } from '../../latch-types'
import type { NamesState } from '../state'

/** watchNamesState calls onChange with every new names state; returns the unsubscribe function. */
export function watchNamesState(latch: Latch, onChange: (state: NamesState | undefined) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.names !== prev.names) onChange(next.names)
  })
}
