// A tiny typed store: the state container of a Latch instance. One root
// store per instance holds every capability's state as a slice (wagmi's
// Config holds its state the same way); a capability's controller sees only
// its own slice through sliceOf. Snapshots are immutable and only replaced
// on a real change, so a store plugs straight into React's
// useSyncExternalStore (getState is a stable snapshot between changes).

/** Called after every change with the new and the previous state. */
export type StoreListener<T> = (state: T, prev: T) => void

/** A partial state, or a function of the current state returning one. */
export type StoreUpdate<T> = Partial<T> | ((state: T) => Partial<T>)

/** A store that can be read and watched but not written: a derived view. */
export interface ReadableStore<T> {
  /** The current snapshot; the same object until the next real change. */
  getState(): T
  /** Registers a listener; returns a function that removes it. */
  subscribe(listener: StoreListener<T>): () => void
}

/** A typed, framework-free state container. */
export interface Store<T extends object> extends ReadableStore<T> {
  /** Merges a partial state; does nothing (and notifies no one) when no key changes. */
  setState(update: StoreUpdate<T>): void
}

/** Makes the store a controller keeps its state in: a slice of the instance's root store, or a store of its own. */
export type SliceFactory<T extends object> = (initial: T) => Store<T>

/** merge returns `state` with `partial` applied, or `state` itself when no key changes. */
function merge<T extends object>(state: T, partial: Partial<T>): T {
  const changed = (Object.keys(partial) as (keyof T)[]).some((key) => !Object.is(partial[key], state[key]))
  return changed ? { ...state, ...partial } : state
}

/**
 * createStore makes a Store holding `initial`.
 *
 * A change made by a listener while listeners are being told of an earlier
 * one is applied at once (getState shows it) but told after the current round
 * ends, as its own round. So every listener sees the changes in the order
 * they happened, each as (state, prev) where prev is the state of the round
 * before, and none is told of a later state before an earlier one.
 */
export function createStore<T extends object>(initial: T): Store<T> {
  let state: T = initial
  let notifying = false
  const listeners = new Set<StoreListener<T>>()
  return {
    getState: () => state,
    setState(update) {
      const next = merge(state, typeof update === 'function' ? update(state) : update)
      if (next === state) return
      const first = state
      state = next
      if (notifying) return // the round in progress tells of it next
      notifying = true
      try {
        let told = first
        while (told !== state) {
          const current = state
          // Copy so a listener that unsubscribes (or subscribes) mid-notify does not skip others.
          for (const listener of [...listeners]) listener(current, told)
          told = current
        }
      } finally {
        notifying = false
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

/**
 * sliceOf is the Store of one key of a root store: reads see the root's
 * value at that key, writes replace it, and listeners are told only when it
 * changes. The root must already hold the key (see mountSlice).
 */
export function sliceOf<S extends object, K extends keyof S>(root: Store<S>, key: K): Store<S[K] & object> {
  type V = S[K] & object
  return {
    getState: () => root.getState()[key] as V,
    setState(update) {
      root.setState((s) => {
        const current = s[key] as V
        const next = merge(current, typeof update === 'function' ? update(current) : update)
        return (next === current ? {} : { [key]: next }) as Partial<S>
      })
    },
    subscribe(listener) {
      return root.subscribe((s, p) => {
        if (s[key] !== p[key]) listener(s[key] as V, p[key] as V)
      })
    },
  }
}

/** mountSlice puts `initial` into the root at `key` and returns that key's slice store. */
export function mountSlice<S extends object, K extends keyof S>(root: Store<S>, key: K, initial: S[K] & object): Store<S[K] & object> {
  root.setState({ [key]: initial } as unknown as Partial<S>)
  return sliceOf(root, key)
}

/**
 * derivedStore is a read-only view computed from a root store: derive runs
 * when the root has changed since the last read, and a result whose every
 * key equals the previous one's keeps the previous snapshot, so listeners
 * are told only of visible changes.
 */
export function derivedStore<S extends object, D extends object>(root: ReadableStore<S>, derive: (prev: D | undefined) => D): ReadableStore<D> {
  let source: S | undefined
  let value: D | undefined
  const read = (): D => {
    const s = root.getState()
    if (s === source && value) return value
    source = s
    const next = derive(value)
    value = value && shallowEqual(value, next) ? value : next
    return value
  }
  return {
    getState: read,
    subscribe(listener) {
      let last = read()
      return root.subscribe(() => {
        const next = read()
        if (next === last) return
        const prev = last
        last = next
        listener(next, prev)
      })
    },
  }
}

function shallowEqual<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[]
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => Object.is(a[k], b[k]))
}
