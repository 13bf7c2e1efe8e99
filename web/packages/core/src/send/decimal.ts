// Decimal amounts as the visitor types them (spec §5): optional minus, digits,
// optional dot and digits. Parsing is exact (bigint, no floats): fraction
// digits beyond the wanted places are rounded half away from zero, and the
// default precision is 20 places (spec §9 "Decimal default 20 places").

/** Fraction digits kept when no precision is given (spec §9). */
export const DEFAULT_DECIMAL_PLACES = 20

/**
 * A decimal number: optional minus, then digits with an optional dot and
 * digits. At least one digit is needed ("1", "1.", ".5", "-0.25"); no
 * exponent, no grouping, no spaces.
 */
const decimalPattern = /^-?(?:\d+\.?\d*|\.\d+)$/

/** Thrown for text that is not a decimal number; the message is the spec's (§5). */
export class InvalidDecimalError extends Error {
  override readonly name = 'InvalidDecimalError'
  readonly value: string

  constructor(value: string) {
    super(`Number \`${value}\` is not a valid decimal number.`)
    this.value = value
  }
}

/** Whether `value` is a decimal number by the rule of spec §5. */
export function isDecimal(value: string): boolean {
  return decimalPattern.test(value)
}

/**
 * Parses decimal text into an integer scaled by 10^places: `('1.5', 6)` →
 * 1500000n. Extra fraction digits are rounded half away from zero
 * (`('0.0000005', 6)` → 1n, `('-0.0000005', 6)` → -1n). Throws
 * {@link InvalidDecimalError} for anything else.
 */
export function parseDecimal(value: string, places: number = DEFAULT_DECIMAL_PLACES): bigint {
  if (!Number.isInteger(places) || places < 0) throw new RangeError(`decimal places must be a non-negative integer, not ${places}`)
  if (!decimalPattern.test(value)) throw new InvalidDecimalError(value)
  const negative = value.startsWith('-')
  const body = negative ? value.slice(1) : value
  const dot = body.indexOf('.')
  const whole = dot === -1 ? body : body.slice(0, dot)
  const fraction = dot === -1 ? '' : body.slice(dot + 1)
  const kept = fraction.slice(0, places).padEnd(places, '0')
  let magnitude = BigInt((whole || '0') + kept)
  // Half away from zero: only the first dropped digit decides.
  const firstDropped = fraction.charCodeAt(places) - 48
  if (firstDropped >= 5) magnitude += 1n
  return negative ? -magnitude : magnitude
}

/**
 * Formats an integer scaled by 10^places as decimal text without trailing
 * fraction zeros: `(1500000n, 6)` → "1.5", `(0n, 6)` → "0". The inverse of
 * {@link parseDecimal} for canonical text.
 */
export function formatDecimal(value: bigint, places: number): string {
  if (!Number.isInteger(places) || places < 0) throw new RangeError(`decimal places must be a non-negative integer, not ${places}`)
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(places + 1, '0')
  const whole = digits.slice(0, digits.length - places)
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '')
  const text = fraction ? `${whole}.${fraction}` : whole
  return negative ? `-${text}` : text
}

/**
 * Formats decimal text for display: rounded to exactly `places` fraction
 * digits (half away from zero) with en-US thousands separators:
 * `('1234.5678', 3)` → "1,234.568", `('2', 3)` → "2.000". Text that is not a
 * decimal number is shown as zero rather than breaking a list.
 */
export function formatDecimalFixed(value: string, places: number): string {
  const scaled = isDecimal(value) ? parseDecimal(value, places) : 0n
  const negative = scaled < 0n
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0')
  const whole = digits.slice(0, digits.length - places).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = digits.slice(digits.length - places)
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`
}

/**
 * The value of a transaction payload (spec §5): decimal text in the smallest
 * unit, or 0 when the text is not a number (AppKit sends 0 rather than fail).
 */
export function transactionValue(value: string | bigint | undefined, places = 0): bigint {
  if (typeof value === 'bigint') return value
  if (value === undefined || !isDecimal(value)) return 0n
  return parseDecimal(value, places)
}
