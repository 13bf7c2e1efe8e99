import type { Latch } from '../latch-types'
import type { EmbeddedWallet } from './controller'

/** The message of an e-mail action on a Latch without the embedded wallet. */
export const EMBEDDED_DISABLED_MESSAGE =
  'The e-mail wallet is off: createLatch needs a projectId, a frameUrl and features.email not false'

/** Spec §5: an e-mail field that is not a valid e-mail (latchd answers the same). */
export const INVALID_EMAIL_MESSAGE = 'Invalid email address'

// The same shape latchd and the frame's zod schema accept: one @, a dot in the domain, no spaces.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** validEmail trims an address and returns it, or undefined when it is not a valid e-mail (max 254 characters). */
export function validEmail(value: string): string | undefined {
  const email = value.trim()
  return email.length <= 254 && emailPattern.test(email) ? email : undefined
}

/** requireEmbedded returns the instance's embedded wallet or throws when the options leave it out. */
export function requireEmbedded(latch: Latch): EmbeddedWallet {
  const wallet = latch._internal.embedded
  if (!wallet) throw new Error(EMBEDDED_DISABLED_MESSAGE)
  return wallet
}

/** errorMessage is what the views show for a failed step. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'An error occurred'
}
