// The on-demand entry of the swap module: a page that never opens the swap
import { loadLazy } from '../loadLazy'
// panel does not download it.

/** Everything `./index` exports. */
export type SwapModule = typeof import('./index')

let loading: Promise<SwapModule> | undefined

/** Loads the swap module once; later calls share the same promise. */
export function loadSwapModule(): Promise<SwapModule> {
  loading ??= loadLazy().then((l) => l.swap()).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
