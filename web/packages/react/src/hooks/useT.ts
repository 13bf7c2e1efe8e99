import { useCallback } from 'react'
import { useLatchInstance } from '../context'
import { defaultMessages, interpolate, lookup, type MessageKey } from '../messages'

/** latch.t() with the React layer's English defaults for keys core's catalogue lacks. */
export function useT(): (key: MessageKey, params?: Record<string, string | number>) => string {
  const latch = useLatchInstance()
  return useCallback(
    (key, params) => lookup((k, p) => latch.t(k, p), key, params) ?? interpolate(defaultMessages[key], params),
    [latch],
  )
}
