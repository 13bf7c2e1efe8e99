// Each locale's catalogue is a chunk of its own; this module (itself on demand)
// holds the one import() of each, so a page loads only the locale it shows.
import type { LatchLocale, LocaleCatalogue } from './locale'

type Loader = () => Promise<{ default: LocaleCatalogue }>

const loaders: Record<Exclude<LatchLocale, 'en'>, Loader> = {
  ar: () => import('./locales/ar'),
  de: () => import('./locales/de'),
  es: () => import('./locales/es'),
  fa: () => import('./locales/fa'),
  fr: () => import('./locales/fr'),
  he: () => import('./locales/he'),
  hi: () => import('./locales/hi'),
  id: () => import('./locales/id'),
  it: () => import('./locales/it'),
  ja: () => import('./locales/ja'),
  ko: () => import('./locales/ko'),
  ms: () => import('./locales/ms'),
  nl: () => import('./locales/nl'),
  pl: () => import('./locales/pl'),
  'pt-BR': () => import('./locales/pt-BR'),
  ru: () => import('./locales/ru'),
  th: () => import('./locales/th'),
  tr: () => import('./locales/tr'),
  uk: () => import('./locales/uk'),
  vi: () => import('./locales/vi'),
  'zh-CN': () => import('./locales/zh-CN'),
  'zh-TW': () => import('./locales/zh-TW'),
}

/** localeCatalogue loads a non-English locale's catalogue. */
export async function localeCatalogue(locale: Exclude<LatchLocale, 'en'>): Promise<LocaleCatalogue> {
  return (await loaders[locale]()).default
}
