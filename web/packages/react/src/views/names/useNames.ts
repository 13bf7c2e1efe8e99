import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { loadNamesModule, type NamesModule, type NamesState } from '@latchkit/core'
import { useLatchInstance } from '../../context'

/** useNamesModule is core's names module once loaded (it is a chunk of its own), undefined until then. */
export function useNamesModule(): NamesModule | undefined {
  const [names, setNames] = useState<NamesModule>()
  useEffect(() => {
    let live = true
    loadNamesModule().then(
      (m) => live && setNames(() => m),
      (error: unknown) => console.error('[latch] could not load the names module', error),
    )
    return () => {
      live = false
    }
  }, [])
  return names
}

const noSubscription = () => () => {}

/** useNamesState is the instance's names slice (profile names, the registration's step), undefined until first used. */
export function useNamesState(names: NamesModule | undefined): NamesState | undefined {
  const latch = useLatchInstance()
  return useSyncExternalStore(
    useCallback((onChange: () => void) => (names ? names.watchNamesState(latch, onChange) : noSubscription()), [latch, names]),
    () => names?.getNamesState(latch),
    () => undefined,
  )
}

/**
 * useRegisterUnavailable is why the connected account cannot register a name (spec §5), undefined when it can or until
 * the names module is loaded; it follows the instance's store (account, network, the embedded wallet's user).
 */
export function useRegisterUnavailable(names: NamesModule | undefined): string | undefined {
  const latch = useLatchInstance()
  return useSyncExternalStore(
    useCallback((onChange: () => void) => {
      const offRoot = latch._internal.root.subscribe(onChange)
      const offState = latch.subscribe(onChange)
      return () => {
        offRoot()
        offState()
      }
    }, [latch]),
    () => names?.registerUnavailable(latch),
    () => undefined,
  )
}
