import { createElement, lazy, useState, type ComponentType } from 'react'

/** A lazyRetry component: renders as the loaded component, and can be loaded ahead of its first render. */
export type LazyRetryComponent<T> = T & {
  /**
   * Loads the chunk now (once; after a failure the next call loads again). Once it has loaded, the component
   * renders at once, without suspending, so a view prefetched on hover shows no fallback on the click.
   */
  preload(): Promise<void>
}

/**
 * lazyRetry is React's lazy() that forgets a failed load. lazy() keeps a rejected import for the page's life, so a
 * chunk that failed once (a dropped connection, a deploy that replaced the chunk's file) would fail every later
 * render of that view; with lazyRetry the next render after a failure loads the chunk again.
 */
// The type parameter is lazy()'s own: any component, its props kept.
export function lazyRetry<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyRetryComponent<T> {
  // The loaded component: React's lazy() suspends at its first render even when the chunk is already there (the
  // import's promise settles a microtask later), so an instance mounted after the load renders the component itself.
  let loaded: T | undefined
  let loading: Promise<{ default: T }> | undefined
  const start = () =>
    (loading ??= load().then(
      (m) => ((loaded = m.default), m),
      (error: unknown) => {
        loading = undefined
        current = attempt()
        throw error
      },
    ))
  const attempt = (): T => lazy(start) as unknown as T
  let current = attempt()
  const component = function LazyRetry(props: object) {
    // Chosen at mount and kept: an instance that mounted through lazy() keeps it (once resolved it renders at once),
    // as switching the element's type would remount the view and lose its state (a half-typed e-mail address).
    const [direct] = useState(() => loaded)
    return createElement(direct ?? current, props)
  } as LazyRetryComponent<T>
  component.preload = () => start().then(() => undefined)
  return component
}
