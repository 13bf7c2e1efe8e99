// The on-demand entry of the names module: a page that never opens the names
import { loadLazy, once } from '../loadLazy'
// views or the Account view's name does not download it.

/** Everything `./index` exports. */
export type NamesModule = typeof import('./index')

/** Loads the names module once; later calls share the same promise. */
export const loadNamesModule: () => Promise<NamesModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.names()))
