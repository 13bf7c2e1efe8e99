// The widget's language (issue 24): which locales Latch ships, how a visitor's
// languages map to one, and the controller that holds the active catalogue.
// English is built in (core's messages.ts and each view's strings); every other
// locale is one lazy chunk (./locales/<tag>.ts) holding all of its strings and
// is loaded before the modal shows it. This module is on every page's first
// load, so it stays small: the Intl formatting lives in ./intl, loaded with a
// catalogue.
import { createStore, type SliceFactory, type Store } from '../store'
import { loadLazy } from '../loadLazy'
import type { LocaleFormats } from './intl'

/** The locales Latch ships, as BCP 47 tags. */
export const SUPPORTED_LOCALES = [
  'ar', 'de', 'en', 'es', 'fa', 'fr', 'he', 'hi', 'id', 'it', 'ja', 'ko',
  'ms', 'nl', 'pl', 'pt-BR', 'ru', 'th', 'tr', 'uk', 'vi', 'zh-CN', 'zh-TW',
] as const

/** A locale Latch ships. */
export type LatchLocale = (typeof SUPPORTED_LOCALES)[number]

/** Locales written right to left. */
const RTL: readonly string[] = ['ar', 'fa', 'he']

/** A locale's catalogue: one string per message key (core's and every view's), plural forms as `key_<category>`. */
export type LocaleCatalogue = Readonly<Record<string, string>>

/** The writing direction of a locale. */
export function localeDirection(locale: LatchLocale): 'ltr' | 'rtl' {
  return RTL.includes(locale) ? 'rtl' : 'ltr'
}

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

/** Thrown by the locale option and setLocale for a locale Latch does not ship. */
export class LocaleError extends Error {
  override name = 'LocaleError'
}

/** assertLocale throws unless locale is one of SUPPORTED_LOCALES (exactly as listed). */
export function assertLocale(locale: unknown): asserts locale is LatchLocale {
  if (!SUPPORTED_LOCALES.includes(locale as LatchLocale)) {
    throw new LocaleError(`locale must be one of ${SUPPORTED_LOCALES.join(', ')}, not ${JSON.stringify(locale)}`)
  }
}

/** Loaded catalogues and formats, shared by every instance of the page (a chunk is loaded once). */
const loaded = new Map<LatchLocale, { catalogue: LocaleCatalogue; formats: LocaleFormats }>()

/**
 * loadLocale loads a locale's catalogue chunk and its Intl formats (English:
 * nothing to load). A server-rendered page in another locale awaits it before
 * creating its Latch, on the server and in the browser, so both render the same text.
 */
export async function loadLocale(locale: LatchLocale): Promise<void> {
  assertLocale(locale)
  if (locale === 'en' || loaded.has(locale)) return
  const lazy = await loadLazy()
  const [{ localeCatalogue }, { createLocaleFormats }] = await Promise.all([lazy.catalogues(), lazy.intl()])
  loaded.set(locale, { catalogue: await localeCatalogue(locale), formats: createLocaleFormats(locale) })
}

/** The locale slice: the active locale, and its catalogue and formats once loaded (undefined for English). */
export interface LocaleState {
  readonly locale: LatchLocale
  readonly catalogue: LocaleCatalogue | undefined
  readonly formats: LocaleFormats | undefined
}

/** The locale controller behind `locale` and setLocale. */
export interface LocaleController {
  readonly store: Store<LocaleState>
  /**
   * setLocale loads the locale's chunk, then makes it active; a newer call wins
   * over one still loading. Throws LocaleError for a locale Latch does not ship.
   */
  setLocale(locale: LatchLocale): Promise<void>
}

/** localeSnapshot is a locale's slice as loaded so far (no catalogue or formats until loadLocale resolved). */
export function localeSnapshot(locale: LatchLocale): LocaleState {
  const entry = loaded.get(locale)
  return { locale, catalogue: entry?.catalogue, formats: entry?.formats }
}

/**
 * createLocaleController starts in English, or in `initial` when its chunk is
 * already loaded (loadLocale); otherwise the instance calls setLocale at init,
 * after the page has hydrated, so server and browser first render the same.
 */
export function createLocaleController(initial: LatchLocale = 'en', slice: SliceFactory<LocaleState> = createStore): LocaleController {
  const store = slice(loaded.has(initial) ? localeSnapshot(initial) : localeSnapshot('en'))
  let wanted: LatchLocale = store.getState().locale
  return {
    store,
    async setLocale(locale) {
      assertLocale(locale)
      wanted = locale
      await loadLocale(locale)
      if (wanted === locale) store.setState(localeSnapshot(locale))
    },
  }
}
