// The widget's language (issue 24): which locales Latch ships and the slice
// holding the active one. English is built in (core's messages.ts and each
// area's strings); every other locale is one lazy chunk (./locales/<tag>.ts)
// loaded before the modal shows it. This module is on every page's first load,
// so it holds only the list, the check and the slice: matching the visitor's
// languages, loading a catalogue and the Intl formats are ./switch, a chunk
// an English page never fetches.
import { loadLazy } from '../loadLazy'
import { createStore, type SliceFactory, type Store } from '../store'
import type { LocaleFormats } from './intl'

/** A locale Latch ships (BCP 47). */
export type LatchLocale =
  | 'ar' | 'de' | 'en' | 'es' | 'fa' | 'fr' | 'he' | 'hi' | 'id' | 'it' | 'ja' | 'ko'
  | 'ms' | 'nl' | 'pl' | 'pt-BR' | 'ru' | 'th' | 'tr' | 'uk' | 'vi' | 'zh-CN' | 'zh-TW'

/** The locales Latch ships. */
export const SUPPORTED_LOCALES = 'ar de en es fa fr he hi id it ja ko ms nl pl pt-BR ru th tr uk vi zh-CN zh-TW'.split(
  ' ',
) as readonly LatchLocale[]

/** A locale's catalogue: one string per message key (core's and every view's), plural forms as `key_<category>`. */
export type LocaleCatalogue = Readonly<Record<string, string>>

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

/** The locale slice: the active locale, its direction, and its catalogue and formats (undefined for English). */
export interface LocaleState {
  readonly locale: LatchLocale
  readonly dir: 'ltr' | 'rtl'
  readonly catalogue: LocaleCatalogue | undefined
  readonly formats: LocaleFormats | undefined
}

const english: LocaleState = { locale: 'en', dir: 'ltr', catalogue: undefined, formats: undefined }

/** Locales loaded so far, shared by every instance of the page (./switch fills it; a chunk is loaded once). */
export const loadedLocales = new Map<LatchLocale, LocaleState>([['en', english]])

/**
 * loadLocale loads a locale's catalogue chunk and its Intl formats (English:
 * nothing to load) and resolves with its state. A server-rendered page in
 * another locale awaits it before creating its Latch, on the server and in the
 * browser, so both render the same text.
 */
export async function loadLocale(locale: LatchLocale): Promise<LocaleState> {
  assertLocale(locale)
  return loadedLocales.get(locale) ?? (await (await loadLazy()).localeSwitch()).loadLocale(locale)
}

/** The locale controller behind `locale` and setLocale. */
export interface LocaleController {
  readonly store: Store<LocaleState>
  /**
   * setLocale loads the locale's chunk, then makes it active; a newer call wins
   * over one still loading. Rejects with LocaleError for a locale Latch does not ship.
   */
  setLocale(locale: LatchLocale): Promise<void>
  /**
   * start picks the instance's language at init: the app's `locale`, else the
   * first of the visitor's languages Latch ships. A visitor whose first language
   * is English costs nothing; any other loads the matcher.
   */
  start(locale: LatchLocale | undefined, languages: readonly string[] | undefined): Promise<void>
}

/**
 * createLocaleController starts in English, or in `initial` when its chunk is
 * already loaded (loadLocale); otherwise start() switches at init, after the
 * page has hydrated, so server and browser first render the same.
 */
export function createLocaleController(initial: LatchLocale = 'en', slice: SliceFactory<LocaleState> = createStore): LocaleController {
  const store = slice(loadedLocales.get(initial) ?? english)
  let wanted = store.getState().locale
  const setLocale = async (locale: LatchLocale) => {
    assertLocale(locale)
    wanted = locale
    const state = await loadLocale(locale)
    if (wanted === locale) store.setState(state)
  }
  return {
    store,
    setLocale,
    async start(locale, languages) {
      if (!locale && (!languages?.length || /^en\b/i.test(languages[0]!))) return
      const next = locale ?? (await (await loadLazy()).localeSwitch()).detectLocale(languages)
      if (next !== store.getState().locale) await setLocale(next)
    },
  }
}
