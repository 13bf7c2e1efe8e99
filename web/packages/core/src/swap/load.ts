// The on-demand entry of the swap module: a page that never opens the swap
import { loadLazy, once } from '../loadLazy'
// panel does not download it.

/** Everything `./index` exports. */
export type SwapModule = typeof import('./index')

/** Loads the swap module once; later calls share the same promise. */
export const loadSwapModule: () => Promise<SwapModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.swap()))
