// The pay module's on-demand entry: latch.pay loads it on first use.
import { loadLazy } from '../loadLazy'

/** Everything `./index` exports. */
export type PayModule = typeof import('./index')

let loading: Promise<PayModule> | undefined

/** Loads the pay module once; later calls share the same promise. */
export function loadPayModule(): Promise<PayModule> {
  loading ??= loadLazy().then((l) => l.pay()).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
