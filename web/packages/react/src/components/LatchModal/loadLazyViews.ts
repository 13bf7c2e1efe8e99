/**
 * loadLazyViews loads the chunk of lazy loaders (./lazyViews): the modal's dialog, its lazy views, and the lazy parts
 * of the dialog's views. Going through it keeps those chunks' file lists out of the page's first load.
 */
export const loadLazyViews = () => import('./lazyViews')
