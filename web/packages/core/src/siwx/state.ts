// The sign-in slice of an instance's root store (`root.siwx`), written on the
// root directly: store.ts's slice helpers are first-load code, and importing
// them from this lazy chunk would split core's entry (see names/state.ts).
import type { Latch } from '../latch-types'
import type { SiwxState } from '../siwx'

/** The state before the flow knows anything about the connected account. */
export const initialSiwxState: SiwxState = { status: 'signed-out', required: false, session: undefined, account: undefined, error: undefined }

/** The state of an instance without `options.siwx`. */
export const disabledSiwxState: SiwxState = { ...initialSiwxState, status: 'disabled' }

/** Reads and patches the sign-in slice. */
export interface SiwxSlice {
  getState(): SiwxState
  setState(patch: Partial<SiwxState>): void
}

/** siwxSlice is the instance's sign-in slice; it reads as disabled when the app gave no `siwx`. */
export function siwxSlice(latch: Latch): SiwxSlice {
  const { root, opts } = latch._internal
  const getState = (): SiwxState => root.getState().siwx ?? (opts.siwx ? initialSiwxState : disabledSiwxState)
  return { getState, setState: (patch) => root.setState({ siwx: { ...getState(), ...patch } }) }
}
