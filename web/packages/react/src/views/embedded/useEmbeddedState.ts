import { useCallback, useSyncExternalStore } from 'react'
import { getEmbeddedState, watchEmbeddedState, type EmbeddedState } from '@latchkit/core'
import { useLatchInstance } from '../../context'

/** The instance's e-mail wallet state (undefined when the options leave e-mail login out). */
export function useEmbeddedState(): EmbeddedState | undefined {
  const latch = useLatchInstance()
  const subscribe = useCallback((onChange: () => void) => watchEmbeddedState(latch, onChange), [latch])
  const get = () => getEmbeddedState(latch)
  return useSyncExternalStore(subscribe, get, get)
}
