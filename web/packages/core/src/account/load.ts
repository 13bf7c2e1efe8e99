// The on-demand entry of the account module (see models.ts).
import { loadLazy } from '../loadLazy'

/** Everything `./models` exports: latchd's account client, formats, the Activity model. */
export type AccountModule = typeof import('./models')

let loading: Promise<AccountModule> | undefined

/** Loads the account module once; later calls share the same promise. */
export function loadAccountModule(): Promise<AccountModule> {
  loading ??= loadLazy().then((l) => l.accountModels()).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
