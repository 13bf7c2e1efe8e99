// The pay module's on-demand entry: latch.pay loads it on first use.
import { loadLazy, once } from '../loadLazy'

/** Everything `./index` exports. */
export type PayModule = typeof import('./index')

/** Loads the pay module once; later calls share the same promise. */
export const loadPayModule: () => Promise<PayModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.pay()))
