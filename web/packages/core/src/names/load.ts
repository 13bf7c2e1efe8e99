// The on-demand entry of the names module: a page that never opens the names
import { loadLazy } from '../loadLazy'
// views or the Account view's name does not download it.

/** Everything `./index` exports. */
export type NamesModule = typeof import('./index')

let loading: Promise<NamesModule> | undefined

/** Loads the names module once; later calls share the same promise. */
export function loadNamesModule(): Promise<NamesModule> {
  loading ??= loadLazy().then((l) => l.names()).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
