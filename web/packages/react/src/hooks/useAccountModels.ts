import { useEffect, useState } from 'react'
import { loadAccountModule, type AccountModule } from '@latchkit/core'

let loaded: AccountModule | undefined

/** Starts loading core's account module (formats, Activity model); views preload it with their own chunk. */
export function preloadAccountModels(): Promise<AccountModule> {
  return loadAccountModule().then((module) => (loaded = module))
}

/**
 * Core's account module (formats, Activity model, latchd client), loaded on
 * demand; undefined for the first render after it was first asked for.
 */
export function useAccountModels(): AccountModule | undefined {
  const [models, setModels] = useState<AccountModule | undefined>(loaded)
  useEffect(() => {
    if (models) return
    let live = true
    preloadAccountModels().then(
      (module) => live && setModels(module),
      (error: unknown) => console.error('[latch] could not load the account module', error),
    )
    return () => {
      live = false
    }
  }, [models])
  return models
}
