// The account-name rules of spec §5 (letters, digits or hyphens, at least 4
// characters), as latchd applies them (internal/names NormalizeLabel), so the
// visitor reads the same message while typing as the server would answer.

/** The shortest name (spec §5). */
export const MIN_NAME_LENGTH = 4

/** The longest label a DNS-encoded ENS name can carry. */
export const MAX_NAME_LENGTH = 63

/** The message of the first rule `label` breaks, or undefined when it is a valid name. */
export function accountNameError(label: string): string | undefined {
  const name = label.trim().toLowerCase()
  if (name === '') return 'A name is required'
  for (const ch of name) {
    if (!/[a-z0-9-]/.test(ch)) {
      if (ch === '.') return 'A name is one label, without dots'
      return `A name may only contain letters, digits and hyphens, not ${JSON.stringify(ch)}`
    }
  }
  if (name.length < MIN_NAME_LENGTH) return `A name must be at least ${MIN_NAME_LENGTH} characters`
  if (name.length > MAX_NAME_LENGTH) return `A name must be at most ${MAX_NAME_LENGTH} characters`
  // ENSIP-15 reserves "--" as the third and fourth characters for punycode ("xn--").
  if (name.slice(2, 4) === '--') return 'A name must not have hyphens as its third and fourth characters'
  return undefined
}
