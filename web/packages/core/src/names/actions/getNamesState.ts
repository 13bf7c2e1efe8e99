import type { Latch } from '../../latch-types'
import type { NamesState } from '../state'

/** getNamesState is the instance's names slice, or undefined before any names action ran. */
export function getNamesState(latch: Latch): NamesState | undefined {
  return latch._internal.root.getState().names
}
