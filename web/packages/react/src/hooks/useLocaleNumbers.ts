import { useMemo } from 'react'
import { useLatchFormats } from './useT'

/** A plain decimal string (`-12.5`, `0.000001`): what Intl can write exactly. Anything else (`1e-7`, text) stays as it is. */
const DECIMAL = /^-?\d+(\.\d+)?$/

/**
 * useLocaleNumbers writes the numbers a view shows beyond balances and fiat
 * (amounts typed or quoted, rates, percentages) in the active locale: through
 * its Intl formats, or as they are in English, whose text the spec fixes.
 * Only lazy views use it, so it stays out of the first load (unlike useT).
 */
export function useLocaleNumbers(): { decimal: (value: string) => string; number: (value: number) => string } {
  const formats = useLatchFormats()
  return useMemo(
    () => ({
      decimal: (value: string) => (formats && DECIMAL.test(value) ? formats.decimal(value) : value),
      number: (value: number) => (formats ? formats.number(value) : String(value)),
    }),
    [formats],
  )
}
