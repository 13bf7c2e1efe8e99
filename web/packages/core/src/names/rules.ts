// The account-name rules of spec §5 (letters, digits or hyphens, at least 4
// characters), as latchd applies them (internal/names NormalizeLabel), so the
// visitor reads the same message while typing as the server would answer.
import type { Latch } from '../latch-types'
import { lookup, type MessageParams } from '../messages'
import { namesFlowStrings, type NamesFlowStringKey } from './strings'

/** The shortest name (spec §5). */
export const MIN_NAME_LENGTH = 4

/** The longest label a DNS-encoded ENS name can carry. */
export const MAX_NAME_LENGTH = 63

/** namesText is a names message in the instance's language (English without an instance). */
export function namesText(latch: Latch | undefined, key: NamesFlowStringKey, params?: MessageParams): string {
  const state = latch?.getState()
  return lookup(namesFlowStrings, key, params, state?.catalogue, state?.locale)
}

/**
 * The message of the first rule `label` breaks, or undefined when it is a
 * valid name; in the instance's language when given `latch`.
 */
export function accountNameError(label: string, latch?: Latch): string | undefined {
  const name = label.trim().toLowerCase()
  if (name === '') return namesText(latch, 'names.ruleRequired')
  for (const ch of name) {
    if (!/[a-z0-9-]/.test(ch)) {
      if (ch === '.') return namesText(latch, 'names.ruleOneLabel')
      return namesText(latch, 'names.ruleCharacter', { character: JSON.stringify(ch) })
    }
  }
  if (name.length < MIN_NAME_LENGTH) return namesText(latch, 'names.ruleTooShort', { count: MIN_NAME_LENGTH })
  if (name.length > MAX_NAME_LENGTH) return namesText(latch, 'names.ruleTooLong', { count: MAX_NAME_LENGTH })
  // ENSIP-15 reserves "--" as the third and fourth characters for punycode ("xn--").
  if (name.slice(2, 4) === '--') return namesText(latch, 'names.ruleHyphens')
  return undefined
}
