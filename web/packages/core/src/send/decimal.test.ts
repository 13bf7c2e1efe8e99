import { describe, expect, it } from 'vitest'
import { parseUnits } from 'viem'
import {
  DEFAULT_DECIMAL_PLACES,
  formatDecimal,
  formatDecimalFixed,
  InvalidDecimalError,
  isDecimal,
  parseDecimal,
  transactionValue,
} from './decimal'

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const digits = (next: () => number, max: number) =>
  Array.from({ length: Math.floor(next() * (max + 1)) }, () => String(Math.floor(next() * 10))).join('')

/**
 * Reference: the exact rational whole.fraction, scaled by 10^places and
 * rounded half away from zero with bigint division, written independently of
 * parseDecimal's digit slicing.
 */
function referenceParse(text: string, places: number): bigint {
  const negative = text.startsWith('-')
  const body = negative ? text.slice(1) : text
  const [whole = '', fraction = ''] = body.split('.')
  const numerator = BigInt((whole || '0') + fraction) * 10n ** BigInt(places)
  const denominator = 10n ** BigInt(fraction.length)
  let quotient = numerator / denominator
  const remainder = numerator % denominator
  if (remainder * 2n >= denominator && remainder !== 0n) quotient += 1n
  return negative ? -quotient : quotient
}

describe('parseDecimal', () => {
  it('parses digits, a dot and digits, with an optional minus', () => {
    expect(parseDecimal('1.5', 6)).toBe(1_500_000n)
    expect(parseDecimal('0.01', 18)).toBe(10_000_000_000_000_000n)
    expect(parseDecimal('42', 0)).toBe(42n)
    expect(parseDecimal('-0.25', 2)).toBe(-25n)
    expect(parseDecimal('1.', 2)).toBe(100n)
    expect(parseDecimal('.5', 2)).toBe(50n)
    expect(parseDecimal('007.10', 2)).toBe(710n)
  })

  it('rounds extra fraction digits half away from zero', () => {
    expect(parseDecimal('1.2345', 3)).toBe(1235n)
    expect(parseDecimal('1.2344', 3)).toBe(1234n)
    expect(parseDecimal('-1.2345', 3)).toBe(-1235n)
    expect(parseDecimal('0.0000005', 6)).toBe(1n)
    expect(parseDecimal('0.0000004999999999', 6)).toBe(0n)
    expect(parseDecimal('9.9999', 2)).toBe(1000n) // the carry reaches the whole part
    expect(parseDecimal('0.5', 0)).toBe(1n)
    expect(parseDecimal('0.49', 0)).toBe(0n)
  })

  it('is exact where a float would not be: only the first dropped digit decides', () => {
    expect(parseDecimal('1.499999999999999999999', 0)).toBe(1n)
    expect(parseDecimal('0.14999999999999999999999999', 1)).toBe(1n)
    expect(parseDecimal('123456789012345678901234567890.5', 0)).toBe(123456789012345678901234567891n)
  })

  it('agrees with viem parseUnits on ordinary amounts', () => {
    for (const [text, places] of [['1.5', 6], ['0.01', 18], ['1234.56789', 4], ['-3.14159', 3], ['.5', 2]] as const) {
      expect(parseDecimal(text, places)).toBe(parseUnits(text, places))
    }
  })

  it('defaults to 20 places (spec §9)', () => {
    expect(DEFAULT_DECIMAL_PLACES).toBe(20)
    expect(parseDecimal('1')).toBe(10n ** 20n)
    expect(parseDecimal('0.000000000000000000015')).toBe(2n)
  })

  it.each(['', '.', '-', '-.', 'abc', '1e18', '1,5', ' 1', '1 ', '--1', '+1', '1.2.3', '0x10', 'NaN', 'Infinity', '١'])(
    'rejects %j with the spec message',
    (value) => {
      expect(() => parseDecimal(value, 18)).toThrow(InvalidDecimalError)
      expect(() => parseDecimal(value, 18)).toThrow(`Number \`${value}\` is not a valid decimal number.`)
      expect(isDecimal(value)).toBe(false)
    },
  )

  it('rejects a bad precision', () => {
    expect(() => parseDecimal('1', -1)).toThrow(RangeError)
    expect(() => parseDecimal('1', 1.5)).toThrow(RangeError)
  })
})

describe('formatDecimal / formatDecimalFixed / transactionValue', () => {
  it('formats without trailing zeros', () => {
    expect(formatDecimal(1_500_000n, 6)).toBe('1.5')
    expect(formatDecimal(0n, 6)).toBe('0')
    expect(formatDecimal(-25n, 2)).toBe('-0.25')
    expect(formatDecimal(1n, 18)).toBe('0.000000000000000001')
    expect(formatDecimal(123n, 0)).toBe('123')
  })

  it('formats for display with fixed places and en-US grouping', () => {
    expect(formatDecimalFixed('1234.5678', 3)).toBe('1,234.568')
    expect(formatDecimalFixed('2', 3)).toBe('2.000')
    expect(formatDecimalFixed('1000000', 2)).toBe('1,000,000.00')
    expect(formatDecimalFixed('-0.0004', 3)).toBe('0.000')
    expect(formatDecimalFixed('-12.3456', 2)).toBe('-12.35')
    expect(formatDecimalFixed('not a number', 3)).toBe('0.000')
  })

  it('turns a non-numeric transaction value into 0 (spec §5)', () => {
    expect(transactionValue('abc')).toBe(0n)
    expect(transactionValue(undefined)).toBe(0n)
    expect(transactionValue('1000')).toBe(1000n)
    expect(transactionValue('1.5', 18)).toBe(1_500_000_000_000_000_000n)
    expect(transactionValue(7n)).toBe(7n)
  })
})

describe('parseDecimal properties (seeded)', () => {
  const seeds = [1, 7, 42, 1234, 99991]

  it.each(seeds)('agrees with the exact reference on random valid text (seed %i)', (seed) => {
    const next = random(seed)
    for (let i = 0; i < 2000; i++) {
      let whole = digits(next, 25)
      let fraction = digits(next, 30)
      const dot = next() < 0.8
      if (!whole && !(dot && fraction)) whole = '0'
      if (!dot) fraction = ''
      const text = `${next() < 0.2 ? '-' : ''}${whole}${dot ? '.' : ''}${fraction}`
      const places = Math.floor(next() * 25)
      expect(isDecimal(text), text).toBe(true)
      expect(parseDecimal(text, places), `${text} @ ${places}`).toBe(referenceParse(text, places))
    }
  })

  it.each(seeds)('round-trips: parse(format(n)) = n (seed %i)', (seed) => {
    const next = random(seed)
    for (let i = 0; i < 2000; i++) {
      const places = Math.floor(next() * 30)
      const n = BigInt((next() < 0.3 ? '-' : '') + (digits(next, 40) || '0'))
      expect(parseDecimal(formatDecimal(n, places), places)).toBe(n)
    }
  })

  it.each(seeds)('rounding moves at most half a unit (seed %i)', (seed) => {
    const next = random(seed)
    for (let i = 0; i < 1000; i++) {
      const text = `${digits(next, 10) || '0'}.${digits(next, 30) || '0'}`
      const places = Math.floor(next() * 12)
      const rounded = parseDecimal(text, places)
      // Compare at 40 places: |rounded - exact| <= 0.5 unit of the rounded precision.
      const exact = parseDecimal(text, 40)
      const scaled = rounded * 10n ** BigInt(40 - places)
      const diff = scaled > exact ? scaled - exact : exact - scaled
      expect(diff * 2n <= 10n ** BigInt(40 - places), `${text} @ ${places}`).toBe(true)
    }
  })

  it.each(seeds)('rejects random text that breaks the rule, always with the spec message (seed %i)', (seed) => {
    const next = random(seed)
    const alphabet = '0123456789.-+eE, x_'
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
      const valid = /^-?(\d+\.?\d*|\.\d+)$/.test(text)
      if (valid) {
        expect(parseDecimal(text, 6)).toBe(referenceParse(text, 6))
      } else {
        expect(() => parseDecimal(text, 6), text).toThrow(`Number \`${text}\` is not a valid decimal number.`)
      }
    }
  })
})
