import { useEffect, useMemo, useState } from 'react'
import { getAccountModels, loadAccountModels, type AccountModule } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchFormats } from './useT'

/**
 * Core's account module (formats, Activity model, latchd client), loaded on
 * demand for this Latch instance; undefined until it has loaded. In a
 * non-English locale its formatQuantity and formatFiat are the locale's Intl
 * formats, so every view showing a token quantity or a fiat value through it
 * follows the locale; English keeps the module's spec §9 en-US output.
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
  const formats = useLatchFormats()
  return useMemo(
    () =>
      models && formats
        ? {
            ...models,
            formatQuantity: (numeric: string) => formats.balance(numeric, models.QUANTITY_DECIMALS),
            formatFiat: (value: number, currency?: string) => formats.fiat(value, currency),
          }
        : models,
    [models, formats],
  )
}
