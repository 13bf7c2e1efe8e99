/** loadLazy loads the loaders of core's on-demand chunks (./lazy). */
export const loadLazy = () => import('./lazy')
