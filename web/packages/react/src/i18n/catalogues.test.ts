/// <reference types="vite/client" />
// Issue 24's catalogue check: every locale has exactly the English keys (plural
// forms by its own Intl.PluralRules categories), keeps every `{placeholder}`,
// and fits the length budgets of buttons and titles.
import { SUPPORTED_LOCALES } from '@latchkit/core'
import { describe, expect, it } from 'vitest'
import { budgetOf, displayWidth } from './budgets'
import { englishCatalogue } from './english'

const locales = import.meta.glob<{ default: Record<string, string> }>('../../../core/src/i18n/locales/*.ts', { eager: true })
const { catalogue: english } = englishCatalogue()

/** A key's base without its plural suffix. */
const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** The keys a locale must have: every English key, a plural group as the locale's own categories. */
function expectedKeys(locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories
  const keys = new Set<string>()
  for (const key of Object.keys(english)) {
    const base = pluralBase(key)
    if (base !== key) for (const c of categories) keys.add(`${base}_${c}`)
    else keys.add(key)
  }
  return [...keys].sort()
}

describe('the English catalogue', () => {
  it('has no key twice and every key is namespaced (area.name; an id from latchd may keep its underscores)', () => {
    for (const key of Object.keys(english)) expect(key, key).toMatch(/^[a-zA-Z]+(\.[a-zA-Z0-9_]+)+$/)
  })

  it('fits its own budgets', () => {
    for (const [key, text] of Object.entries(english)) {
      const budget = budgetOf(key)
      if (budget !== undefined) expect(displayWidth(text), `${key}: "${text}"`).toBeLessThanOrEqual(budget)
    }
  })
})

describe.each(SUPPORTED_LOCALES.filter((l) => l !== 'en'))('the %s catalogue', (locale) => {
  const catalogue = locales[`../../../core/src/i18n/locales/${locale}.ts`]?.default ?? {}

  it('has every key and no other', () => {
    const expected = expectedKeys(locale)
    const actual = Object.keys(catalogue).sort()
    expect(expected.filter((k) => !(k in catalogue)), 'missing keys').toEqual([])
    expect(actual.filter((k) => !expected.includes(k)), 'extra keys').toEqual([])
  })

  it('keeps every placeholder, none renamed or added', () => {
    for (const [key, text] of Object.entries(catalogue)) {
      const base = pluralBase(key)
      const source = english[key] ?? english[`${base}_other`] ?? english[base]
      if (source === undefined) continue
      const wanted = placeholders(source).filter((p) => !(base !== key && p === 'count'))
      const got = placeholders(text).filter((p) => !(base !== key && p === 'count'))
      expect(got, `${locale} ${key}: "${text}"`).toEqual(wanted)
    }
  })

  it('fits the length budgets of buttons and titles', () => {
    for (const [key, text] of Object.entries(catalogue)) {
      const budget = budgetOf(key)
      if (budget !== undefined) expect(displayWidth(text), `${locale} ${key}: "${text}"`).toBeLessThanOrEqual(budget)
    }
  })

  it('is a translation: no empty message', () => {
    for (const [key, text] of Object.entries(catalogue)) expect(text.trim(), `${locale} ${key}`).not.toBe('')
  })
})
