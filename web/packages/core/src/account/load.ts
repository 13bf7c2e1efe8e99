// The on-demand entry of the account module (see models.ts).
import { loadLazy, once } from '../loadLazy'

/** Everything `./models` exports: latchd's account client, formats, the Activity model. */
export type AccountModule = typeof import('./models')

/** Loads the account module once; later calls share the same promise. */
export const loadAccountModule: () => Promise<AccountModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.accountModels()))
