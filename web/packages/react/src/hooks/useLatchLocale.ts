import type { LatchLocale } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchLocaleReturnType = {
  /** The active locale (English until another's catalogue has loaded). */
  locale: LatchLocale
  /** Its writing direction. */
  dir: 'ltr' | 'rtl'
  /** Loads a locale's catalogue, then switches to it; rejects with LocaleError for a locale Latch does not ship. */
  setLocale: (locale: LatchLocale) => Promise<void>
}

/** Reads and sets the widget's language. */
export function useLatchLocale(): UseLatchLocaleReturnType {
  const latch = useLatchInstance()
  const { locale, dir } = useLatchSelector((state) => ({ locale: state.locale, dir: state.dir }))
  return { locale, dir, setLocale: (next) => latch.setLocale(next) }
}
