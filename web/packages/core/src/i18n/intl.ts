// The Intl formats of a non-English locale (issue 24), loaded with its
// catalogue. English keeps its exact spec §9 output (connection/format.ts,
// account/format.ts, account/activity.ts); every other locale formats through
// Intl with the same rules: quantities truncated (never rounded up) to their
// decimals and padded, fiat with 2 decimals, narrow relative times at the same
// thresholds, month/year history groups and "DD MMM" dates.
import type { LatchLocale } from './locale'
import { relativeParts } from './relative'

/** How one locale writes amounts, prices, dates and times. */
export interface LocaleFormats {
  readonly locale: LatchLocale
  /** A decimal string truncated to `decimals` fraction digits and padded to them: `'9999.97999'` → `'9.999,979'` (de). */
  balance(value: string, decimals?: number): string
  /** A decimal string as it is (no truncation or padding), grouped: amounts the visitor typed or a quote returned. */
  decimal(value: string): string
  /** A fiat amount with 2 decimals: `1234.5` → `1.234,50 $` (de). */
  fiat(value: number, currency?: string): string
  /** The time since `date`, short, at spec §9's thresholds: `vor 5 Min.` (de). */
  relativeTime(date: Date, now?: Date): string
  /** "DD MMM" of a history row: `05. Juli` (de). */
  activityDate(date: Date): string
  /** A history group's title: the month, with the year unless it is `now`'s year. */
  monthTitle(year: number, month: number, now?: Date): string
  /** Any other number (a percentage, a count) with Intl options. */
  number(value: number, options?: Intl.NumberFormatOptions): string
}

/** createLocaleFormats builds a locale's formats; each Intl formatter is made once and reused. */
export function createLocaleFormats(locale: LatchLocale): LocaleFormats {
  const cache = new Map<string, Intl.NumberFormat>()
  const numberFormat = (options: Intl.NumberFormatOptions): Intl.NumberFormat => {
    const key = JSON.stringify(options)
    let format = cache.get(key)
    if (!format) cache.set(key, (format = new Intl.NumberFormat(locale, options)))
    return format
  }
  const relative = new Intl.RelativeTimeFormat(locale, { style: 'short', numeric: 'always' })
  const day = new Intl.DateTimeFormat(locale, { day: '2-digit', month: 'short' })
  const month = new Intl.DateTimeFormat(locale, { month: 'long' })
  const monthYear = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' })
  // Intl.NumberFormat formats a decimal string exactly (no float on the way); 'trunc' keeps spec §9's truncation.
  // Input is a plain decimal string or one of core's en-US displays ('9,999.979'): its grouping commas are dropped.
  const exact = (value: string, options: Intl.NumberFormatOptions): string => {
    const text = value.trim().replace(/,/g, '')
    // ES2023 Intl takes the decimal string itself; TypeScript's lib here types only numbers.
    return numberFormat(options).format((/^-?\d+(\.\d+)?$/.test(text) ? text : '0') as unknown as number)
  }
  return {
    locale,
    balance: (value, decimals = 3) =>
      exact(value, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, roundingMode: 'trunc' } as Intl.NumberFormatOptions),
    decimal: (value) => exact(value, { maximumFractionDigits: 20 }),
    fiat: (value, currency = 'usd') =>
      numberFormat({ style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
        Number.isFinite(value) ? value : 0,
      ),
    relativeTime(date, now = new Date()) {
      const [count, unit] = relativeParts(date, now)
      return relative.format(-count, unit)
    },
    activityDate: (date) => (Number.isNaN(date.getTime()) ? '' : day.format(date)),
    monthTitle: (year, m, now = new Date()) => (year === now.getFullYear() ? month : monthYear).format(new Date(year, m, 1)),
    number: (value, options = {}) => numberFormat(options).format(value),
  }
}
