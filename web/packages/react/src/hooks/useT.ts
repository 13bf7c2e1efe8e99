import { useCallback } from 'react'
import type { MessageKey } from '@latchkit/core'
import { useLatchInstance } from '../context'

/** latch.t(): the message catalogue of the Latch instance, with {name} interpolation. */
export function useT(): (key: MessageKey, params?: Record<string, string | number>) => string {
  const latch = useLatchInstance()
  return useCallback((key, params) => latch.t(key, params), [latch])
}
