// The options in force of one instance, as the app gave them (merged with its runtime updates) and resolved: a
// slice of the root store, so an update (config/runtime, a lazy chunk) re-derives the state, and every part reads
// the options through `_internal.opts`.
import type { LatchOptions, ResolvedOptions } from '../options'
import type { Store } from '../store'

/** The options in force: as the app gave them (merged with its updates) and resolved. */
export interface OptionsState {
  readonly options: LatchOptions
  readonly opts: ResolvedOptions
}

/** Where an instance keeps its options in force; updateOptions replaces its state. */
export type OptionsStore = Store<OptionsState>
