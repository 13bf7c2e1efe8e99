import type { Latch } from '../../latch-types'
import type { SendState } from '../types'

/** watchSendState calls onChange with every new send form state (the first when the send module loads); returns the unsubscribe function. */
export function watchSendState(latch: Latch, onChange: (state: SendState | undefined) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.send !== prev.send) onChange(next.send)
  })
}
