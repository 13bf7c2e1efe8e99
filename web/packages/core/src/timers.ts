// Injectable timers. Controllers with delays (toast swap, modal shake, search
// debounce, telemetry flush) take a Timers so tests can drive time without
// sleeping; the default defers to the global functions at call time, so
// vitest's fake timers also work with it.

/** An opaque handle returned by Timers.setTimeout. */
export type TimerHandle = unknown

/** The subset of the timer API the controllers use. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

/** Timers backed by globalThis.setTimeout/clearTimeout, looked up on every call. */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
}

/** A debounced function: calls are delayed and collapsed; cancel() drops a pending call. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void
  cancel(): void
  /** Runs a pending call now, if there is one. */
  flush(): void
}

/**
 * debounce delays fn until `ms` have passed without another call, then calls
 * it once with the latest arguments (used for the 300 ms wallet search, spec §9).
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number, timers: Timers = globalTimers): Debounced<A> {
  let handle: TimerHandle | undefined
  let pending: A | undefined
  const run = (): void => {
    handle = undefined
    const args = pending
    pending = undefined
    if (args) fn(...args)
  }
  const debounced = ((...args: A): void => {
    pending = args
    if (handle !== undefined) timers.clearTimeout(handle)
    handle = timers.setTimeout(run, ms)
  }) as Debounced<A>
  debounced.cancel = () => {
    if (handle !== undefined) timers.clearTimeout(handle)
    handle = undefined
    pending = undefined
  }
  debounced.flush = () => {
    if (handle === undefined) return
    timers.clearTimeout(handle)
    run()
  }
  return debounced
}
