import type { Latch } from '../../latch-types'
import type { EmbeddedState } from '../state'

/** getEmbeddedState is the instance's e-mail wallet state, or undefined when the options leave e-mail login out. */
export function getEmbeddedState(latch: Latch): EmbeddedState | undefined {
  return latch._internal.root.getState().embedded
}
