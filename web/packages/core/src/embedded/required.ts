import type { Latch } from '../latch-types'
import { lookup } from '../messages'
import type { EmbeddedWallet } from './controller'
import { FRAME_ERROR_FALLBACK, RECOVERY_PASSWORD_WRONG, SIGNATURE_DECLINED } from './protocol'
import { SOCIAL_POPUP_BLOCKED, SOCIAL_POPUP_CLOSED, SOCIAL_POPUP_TIMEOUT } from './socialPopup'
import { embeddedStrings, type EmbeddedStringKey } from './strings'
import {
  DEVICE_APPROVAL_EXPIRED_MESSAGE,
  FARCASTER_EXPIRED_MESSAGE,
  FRAME_LOAD_FAILED_MESSAGE,
  REQUEST_ABORTED_MESSAGE,
  RPC_ABORTED_MESSAGE,
} from './timings'

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

/** errorMessage is a failed step's message as thrown: English, what the actions compare. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : FRAME_ERROR_FALLBACK
}

/** The wallet's own English messages that reach the views, and their keys. */
const KNOWN: Readonly<Record<string, EmbeddedStringKey>> = {
  [INVALID_EMAIL_MESSAGE]: 'embedded.invalidEmail',
  [FRAME_ERROR_FALLBACK]: 'embedded.errorFallback',
  [SOCIAL_POPUP_CLOSED]: 'embedded.popupClosed',
  [SOCIAL_POPUP_BLOCKED]: 'embedded.popupBlocked',
  [SOCIAL_POPUP_TIMEOUT]: 'embedded.popupTimeout',
  [DEVICE_APPROVAL_EXPIRED_MESSAGE]: 'embedded.deviceApprovalExpired',
  [FARCASTER_EXPIRED_MESSAGE]: 'embedded.farcasterExpired',
  [FRAME_LOAD_FAILED_MESSAGE]: 'embedded.frameLoadFailed',
  [RPC_ABORTED_MESSAGE]: 'embedded.requestAborted',
  [RECOVERY_PASSWORD_WRONG]: 'embedded.recoveryPasswordWrong',
  [SIGNATURE_DECLINED]: 'embedded.signatureDeclined',
}

/** The frame client's refusal within the 30 s resend cooldown (frameClient.ts). */
const COOLDOWN = /^Please try again after (\d+) seconds$/

/**
 * shownMessage is message as the views show it: the wallet's own messages in
 * the active locale, anything else (latchd's and the frame's answers) as it came.
 */
export function shownMessage(latch: Latch, message: string): string {
  const { catalogue, locale } = latch.getState()
  const key = KNOWN[message]
  if (key) return lookup(embeddedStrings, key, undefined, catalogue, locale)
  if (message === REQUEST_ABORTED_MESSAGE) return latch.t('error.generic')
  const cooldown = COOLDOWN.exec(message)
  if (cooldown) return latch.t('error.emailCooldown', { n: Number(cooldown[1]) })
  return message
}

/** shownError is what the views show for a failed step: its message, in the active locale when it is the wallet's own. */
export function shownError(latch: Latch, error: unknown): string {
  return shownMessage(latch, errorMessage(error))
}
