// Switching language, on demand (./locale keeps only what every page needs):
// matching the visitor's languages to a shipped locale and loading a locale's
// catalogue chunk with its Intl formats.
import { localeCatalogue } from './catalogues'
import { createLocaleFormats } from './intl'
import { SUPPORTED_LOCALES, loadedLocales, type LatchLocale, type LocaleState } from './locale'

/** Locales written right to left. */
const RTL: readonly LatchLocale[] = ['ar', 'fa', 'he']

/**
 * matchLocale maps a BCP 47 tag to a shipped locale, or undefined: an exact
 * match (any case) first, then the language alone (`de-AT` → `de`, `pt` →
 * `pt-BR`, `zh-Hant-HK` → `zh-TW`, `zh` → `zh-CN`, `iw` → `he`, `en-GB` → `en`).
 */
export function matchLocale(tag: string): LatchLocale | undefined {
  const lower = tag.trim().replace(/_/g, '-').toLowerCase()
  const exact = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === lower)
  if (exact) return exact
  const [lang = '', ...rest] = lower.split('-')
  if (lang === 'zh') return rest.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo') ? 'zh-TW' : 'zh-CN'
  if (lang === 'pt') return 'pt-BR'
  if (lang === 'iw') return 'he'
  if (lang === 'in') return 'id'
  return SUPPORTED_LOCALES.find((l) => l === lang)
}

/** detectLocale returns the first supported entry of the visitor's languages, else English. */
export function detectLocale(languages: readonly string[] | undefined): LatchLocale {
  for (const tag of languages ?? []) {
    const match = matchLocale(tag)
    if (match) return match
  }
  return 'en'
}

/** The writing direction of a locale. */
export function localeDirection(locale: LatchLocale): 'ltr' | 'rtl' {
  return RTL.includes(locale) ? 'rtl' : 'ltr'
}

/** loadLocale loads a non-English locale's catalogue and formats once, and records them for every instance. */
export async function loadLocale(locale: LatchLocale): Promise<LocaleState> {
  const known = loadedLocales.get(locale)
  if (known) return known
  const state: LocaleState = {
    locale,
    dir: localeDirection(locale),
    catalogue: await localeCatalogue(locale as Exclude<LatchLocale, 'en'>),
    formats: createLocaleFormats(locale),
  }
  loadedLocales.set(locale, state)
  return state
}
