import { createElement, lazy, type ComponentType } from 'react'

/**
 * lazyRetry is React's lazy() that forgets a failed load. lazy() keeps a rejected import for the page's life, so a
 * chunk that failed once (a dropped connection, a deploy that replaced the chunk's file) would fail every later
 * render of that view; with lazyRetry the next render after a failure loads the chunk again.
 */
// The type parameter is lazy()'s own: any component, its props kept.
export function lazyRetry<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): T {
  let current: T
  const attempt = (): T =>
    lazy(() =>
      load().catch((error: unknown) => {
        current = attempt()
        throw error
      }),
    ) as unknown as T
  current = attempt()
  return function LazyRetry(props: object) {
    return createElement(current, props)
  } as T
}
