// A tiny typed store: the state container every controller is built on.
// Snapshots are immutable and only replaced on a real change, so the store
// plugs straight into React's useSyncExternalStore (getState is a stable
// snapshot between changes).

/** Called after every change with the new and the previous state. */
export type StoreListener<T> = (state: T, prev: T) => void

/** A partial state, or a function of the current state returning one. */
export type StoreUpdate<T> = Partial<T> | ((state: T) => Partial<T>)

/** A typed, framework-free state container. */
export interface Store<T extends object> {
  /** The current snapshot; the same object until the next real change. */
  getState(): T
  /** Merges a partial state; does nothing (and notifies no one) when no key changes. */
  setState(update: StoreUpdate<T>): void
  /** Registers a listener; returns a function that removes it. */
  subscribe(listener: StoreListener<T>): () => void
}

/** createStore makes a Store holding `initial`. */
export function createStore<T extends object>(initial: T): Store<T> {
  let state: T = initial
  const listeners = new Set<StoreListener<T>>()
  return {
    getState: () => state,
    setState(update) {
      const partial = typeof update === 'function' ? update(state) : update
      const changed = (Object.keys(partial) as (keyof T)[]).some((key) => !Object.is(partial[key], state[key]))
      if (!changed) return
      const prev = state
      state = { ...state, ...partial }
      // Copy so a listener that unsubscribes (or subscribes) mid-notify does not skip others.
      for (const listener of [...listeners]) listener(state, prev)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}
