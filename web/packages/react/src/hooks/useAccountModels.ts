import { useEffect, useState } from 'react'
import { getAccountModels, loadAccountModels, type AccountModule } from '@latchkit/core'
import { useLatchInstance } from '../context'

/**
 * Core's account module (formats, Activity model, latchd client), loaded on
 * demand for this Latch instance; undefined until it has loaded.
 */
export function useAccountModels(): AccountModule | undefined {
  const latch = useLatchInstance()
  const [models, setModels] = useState<AccountModule | undefined>(() => getAccountModels(latch))
  useEffect(() => {
    if (models) return
    let live = true
    loadAccountModels(latch).then(
      (module) => live && setModels(module),
      (error: unknown) => console.error('[latch] could not load the account module', error),
    )
    return () => {
      live = false
    }
  }, [latch, models])
  return models
}
