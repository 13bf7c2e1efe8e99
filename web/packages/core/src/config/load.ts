// The on-demand entry of the runtime-update module (updateOptions, updateFeatures, addNetwork, removeNetwork,
// open() with a namespace or arguments): a page that never calls them does not download it.
import { loadLazy } from '../loadLazy'

/** Everything `./runtime` exports. */
export type RuntimeModule = typeof import('./runtime')

let loading: Promise<RuntimeModule> | undefined

/** Loads the runtime-update module once; later calls share the same promise. */
export function loadRuntimeModule(): Promise<RuntimeModule> {
  loading ??= loadLazy().then((l) => l.runtime()).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
