import { useCallback, useRef, useSyncExternalStore } from 'react'
import type { LatchEvent } from '@latchkit/core'
import { useLatchInstance } from '../context'

export type UseLatchEventsReturnType = LatchEvent | null

/** The last modal event (MODAL_OPEN, CONNECT_SUCCESS, …) since this component mounted; null before any. */
export function useLatchEvents(): UseLatchEventsReturnType {
  const latch = useLatchInstance()
  const last = useRef<LatchEvent | null>(null)
  const subscribe = useCallback(
    (onChange: () => void) =>
      latch.subscribeEvents((event) => {
        last.current = event
        onChange()
      }),
    [latch],
  )
  const getSnapshot = () => last.current
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
}
