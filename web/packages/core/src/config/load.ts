// The on-demand entry of the runtime-update module (updateOptions, updateFeatures, addNetwork, removeNetwork,
// open() with a namespace or arguments): a page that never calls them does not download it.
import { loadLazy, once } from '../loadLazy'

/** Everything `./runtime` exports. */
export type RuntimeModule = typeof import('./runtime')

/** Loads the runtime-update module once; later calls share the same promise. */
export const loadRuntimeModule: () => Promise<RuntimeModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.runtime()))
