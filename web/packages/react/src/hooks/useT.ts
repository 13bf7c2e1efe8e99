import { useCallback } from 'react'
import { lookup, messages, type LatchLocale, type LocaleCatalogue, type LocaleFormats, type MessageKey } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

type Params = Record<string, string | number>

/** The active locale, its catalogue and formats: what every lookup and format reads. */
function useLocale(): { locale: LatchLocale; catalogue: LocaleCatalogue | undefined; formats: LocaleFormats | undefined } {
  return useLatchSelector((s) => ({ locale: s.locale, catalogue: s.catalogue, formats: s.formats }))
}

/**
 * useStrings returns a lookup of a view's own strings: `english` (the view's
 * built-in catalogue, part of its lazy chunk) or the active locale's string
 * for the key, `{name}` placeholders filled, plurals by a numeric `count`.
 * Re-renders when the locale changes.
 */
export function useStrings<K extends string>(english: Readonly<Record<K, string>>): (key: K, params?: Params) => string {
  const { locale, catalogue } = useLocale()
  return useCallback((key, params) => lookup(english, key, params, catalogue, locale), [english, catalogue, locale])
}

/** useT: core's message catalogue (core/src/messages.ts) in the active locale. */
export function useT(): (key: MessageKey, params?: Params) => string {
  return useStrings(messages.en)
}

/** The active locale's Intl formats; undefined in English, whose spec §9 en-US formats are the built-in helpers. */
export function useLatchFormats(): LocaleFormats | undefined {
  return useLocale().formats
}
