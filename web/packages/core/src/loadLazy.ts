/** loadLazy loads the loaders of core's on-demand chunks (./lazy). */
export const loadLazy = () => import('./lazy')

/**
 * once returns `load`, run on the first call only: later calls share its promise. A failed load is forgotten, so
 * the next call tries again (the network came back).
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
