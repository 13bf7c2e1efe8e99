import { useCallback, useRef, useSyncExternalStore } from 'react'
import type { LatchState } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { shallowEqual } from '../utils'

/**
 * Subscribes to the latch store and returns `selector(state)`, re-rendering only when the selected
 * value changes (shallowly). The server snapshot is the same getState() so hydration matches.
 */
export function useLatchSelector<T>(selector: (state: LatchState) => T, isEqual: (a: T, b: T) => boolean = shallowEqual): T {
  const latch = useLatchInstance()
  const cache = useRef<{ state: LatchState; value: T } | null>(null)
  const subscribe = useCallback((onChange: () => void) => latch.subscribe(() => onChange()), [latch])
  const getSnapshot = (): T => {
    const state = latch.getState()
    const cached = cache.current
    if (cached && cached.state === state) return cached.value
    const value = selector(state)
    const stable = cached && isEqual(cached.value, value) ? cached.value : value
    cache.current = { state, value: stable }
    return stable
  }
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
}

/** The whole state snapshot (for the modal, which renders most of it). */
export function useLatchSnapshot(): LatchState {
  return useLatchSelector((state) => state, Object.is)
}

const subscribeNothing = () => () => {}

/** False on the server and during hydration, true once the client has mounted (no mismatch). */
export function useIsMounted(): boolean {
  return useSyncExternalStore(subscribeNothing, () => true, () => false)
}
