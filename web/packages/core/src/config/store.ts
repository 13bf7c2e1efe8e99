// The options in force of one instance: as the app gave them (merged with its
// runtime updates) and resolved. createLatch makes the store; every part reads
// the options through `_internal.opts`, so an update (config/runtime, a lazy
// chunk) is seen everywhere at once.
import type { LatchOptions, ResolvedOptions } from '../options'
import { createStore, type Store } from '../store'

/** The options in force: as the app gave them (merged with its updates) and resolved. */
export interface OptionsState {
  readonly options: LatchOptions
  readonly opts: ResolvedOptions
}

/** Where an instance keeps its options in force; updateOptions replaces its state. */
export type OptionsStore = Store<OptionsState>

/** createOptionsStore holds the options createLatch resolved. */
export function createOptionsStore(options: LatchOptions, opts: ResolvedOptions): OptionsStore {
  return createStore({ options, opts })
}
