import { describe, expect, it } from 'vitest'
import { relativeTimeLabel } from '../account/activity'
import { lookup } from '../messages'
import { createLocaleFormats } from './intl'
import { SUPPORTED_LOCALES, assertLocale, createLocaleController } from './locale'
import { detectLocale, localeDirection, matchLocale } from './switch'

describe('locales', () => {
  it('ships the issue’s 23 locales', () => {
    expect(SUPPORTED_LOCALES).toHaveLength(23)
  })

  it('matches a visitor tag exactly, then by language', () => {
    expect(matchLocale('de-AT')).toBe('de')
    expect(matchLocale('PT')).toBe('pt-BR')
    expect(matchLocale('pt-PT')).toBe('pt-BR')
    expect(matchLocale('zh-Hant-HK')).toBe('zh-TW')
    expect(matchLocale('zh_TW')).toBe('zh-TW')
    expect(matchLocale('zh')).toBe('zh-CN')
    expect(matchLocale('zh-SG')).toBe('zh-CN')
    expect(matchLocale('iw')).toBe('he')
    expect(matchLocale('en-GB')).toBe('en')
    expect(matchLocale('sw')).toBeUndefined()
  })

  it('detects the first supported of the visitor’s languages, else English', () => {
    expect(detectLocale(['sw', 'fr-CA', 'de'])).toBe('fr')
    expect(detectLocale(['sw'])).toBe('en')
    expect(detectLocale(undefined)).toBe('en')
  })

  it('refuses a locale Latch does not ship', () => {
    expect(() => assertLocale('de-DE')).toThrow('locale must be one of ar, de, en')
    expect(() => assertLocale('xx')).toThrow('not "xx"')
  })

  it('writes ar, fa and he right to left', () => {
    expect(SUPPORTED_LOCALES.filter((l) => localeDirection(l) === 'rtl')).toEqual(['ar', 'fa', 'he'])
  })
})

describe('the locale controller', () => {
  it('starts in English and switches once the catalogue has loaded; the newest call wins', async () => {
    const controller = createLocaleController()
    expect(controller.store.getState()).toMatchObject({ locale: 'en', dir: 'ltr', catalogue: undefined, formats: undefined })
    const first = controller.setLocale('ja')
    const second = controller.setLocale('de')
    await Promise.all([first, second])
    const state = controller.store.getState()
    expect(state.locale).toBe('de')
    expect(state.catalogue).toBeTypeOf('object')
    expect(state.formats?.balance('1234.5678')).toBe('1.234,567')
    await expect(controller.setLocale('xx' as never)).rejects.toThrow('locale must be one of')
    expect(controller.store.getState().locale).toBe('de')
  })

  it('starts in a locale already loaded (a server-rendered page that awaited loadLocale)', async () => {
    await createLocaleController().setLocale('fr')
    expect(createLocaleController('fr').store.getState().locale).toBe('fr')
    expect(createLocaleController('hi').store.getState().locale).toBe('en')
  })

  it('starts in the app’s locale, else the visitor’s first shipped language; English costs no chunk', async () => {
    const app = createLocaleController()
    await app.start('he', ['de'])
    expect(app.store.getState()).toMatchObject({ locale: 'he', dir: 'rtl' })
    const visitor = createLocaleController()
    await visitor.start(undefined, ['sw', 'pt-PT'])
    expect(visitor.store.getState().locale).toBe('pt-BR')
    const english = createLocaleController()
    await english.start(undefined, ['en-GB', 'de'])
    expect(english.store.getState().locale).toBe('en')
  })
})

describe('lookup', () => {
  const english = { 'x.hello': 'Hello {name}', 'x.items_one': '{count} item', 'x.items_other': '{count} items', 'x.items': '{count} items' }

  it('fills named placeholders and leaves a missing one visible', () => {
    expect(lookup(english, 'x.hello', { name: 'Ada' })).toBe('Hello Ada')
    expect(lookup(english, 'x.hello', {})).toBe('Hello {name}')
  })

  it('picks the plural form of the locale, falling back to English for a missing key', () => {
    expect(lookup(english, 'x.items', { count: 1 })).toBe('1 item')
    expect(lookup(english, 'x.items', { count: 2 })).toBe('2 items')
    const pl = { 'x.items_one': '{count} element', 'x.items_few': '{count} elementy', 'x.items_many': '{count} elementów', 'x.items_other': '{count} elementu' }
    expect(lookup(english, 'x.items', { count: 3 }, pl, 'pl')).toBe('3 elementy')
    expect(lookup(english, 'x.items', { count: 5 }, pl, 'pl')).toBe('5 elementów')
    expect(lookup(english, 'x.hello', { name: 'Ada' }, pl, 'pl')).toBe('Hello Ada')
  })
})

describe('Intl formats', () => {
  const now = new Date(2026, 10, 28, 12)

  it('truncate balances to their decimals and pad them, as English does', () => {
    const de = createLocaleFormats('de')
    expect(de.balance('9999.97999')).toBe('9.999,979')
    expect(de.balance('10000')).toBe('10.000,000')
    expect(de.balance('123456789012345678901234.9999')).toBe('123.456.789.012.345.678.901.234,999')
    expect(createLocaleFormats('hi').balance('1234567.5')).toBe('12,34,567.500')
    expect(createLocaleFormats('fr').balance('1234.5', 2)).toBe('1\u202f234,50')
    expect(de.balance('not a number')).toBe('0,000')
    // core's en-US display of a balance (what the account state holds) regroups exactly
    expect(de.decimal('9,999.979')).toBe('9.999,979')
    expect(createLocaleFormats('ar').decimal('10,000.5')).toBe(new Intl.NumberFormat('ar', { maximumFractionDigits: 20 }).format(10000.5))
  })

  it('format fiat with 2 decimals and dates in the locale', () => {
    expect(createLocaleFormats('de').fiat(1234.5)).toBe('1.234,50\u00a0$')
    expect(createLocaleFormats('ja').fiat(1234.5)).toBe('$1,234.50')
    expect(createLocaleFormats('de').monthTitle(2026, 6, now)).toBe('Juli')
    expect(createLocaleFormats('de').monthTitle(2025, 11, now)).toBe('Dezember 2025')
    expect(createLocaleFormats('ja').monthTitle(2025, 11, now)).toBe('2025年12月')
  })

  it('round relative times at the English thresholds', () => {
    const de = createLocaleFormats('de')
    const ago = (ms: number) => new Date(now.getTime() - ms)
    expect(de.relativeTime(ago(5 * 60_000), now)).toBe('vor 5 Min.')
    expect(relativeTimeLabel(ago(5 * 60_000), now)).toBe('5 min')
    expect(relativeTimeLabel(ago(3 * 3_600_000), now)).toBe('3 hrs')
    expect(relativeTimeLabel(ago(3_600_000), now)).toBe('1 hr')
    expect(de.relativeTime(ago(3 * 86_400_000), now)).toBe('vor 3 Tagen')
  })
})
