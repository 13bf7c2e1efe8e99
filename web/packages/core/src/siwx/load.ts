// The on-demand entry of the sign-in module: a page without `options.siwx`
import { loadLazy } from '../loadLazy'
// never downloads it. Kept to one import(): it is in every page's first load
// (init() starts the flow with it); the browser keeps the module once loaded.

/** Everything `./index` exports. */
export type SiwxModule = typeof import('./index')

/** Loads the sign-in module (the flow, its actions, latchd's sign-in client). */
export const loadSiwxModule = (): Promise<SiwxModule> => loadLazy().then((l) => l.siwx())
