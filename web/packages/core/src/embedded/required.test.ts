import { describe, expect, it } from 'vitest'
import type { Latch } from '../latch-types'
import { lookup, messages } from '../messages'
import { INVALID_EMAIL_MESSAGE, shownError, shownMessage } from './required'
import { SOCIAL_POPUP_BLOCKED } from './socialPopup'
import { embeddedStrings } from './strings'
import { DEVICE_APPROVAL_EXPIRED_MESSAGE, REQUEST_ABORTED_MESSAGE } from './timings'

/** A Latch whose active locale has the given catalogue (undefined: English). */
function latchIn(locale: string, catalogue?: Record<string, string>): Latch {
  return {
    getState: () => ({ locale, catalogue }),
    t: (key: string, params?: Record<string, string | number>) => lookup(messages.en, key, params, catalogue, locale),
  } as unknown as Latch
}

describe('shownMessage', () => {
  const german = latchIn('de', {
    'embedded.invalidEmail': 'Ungültige E-Mail-Adresse',
    'embedded.popupBlocked': 'Das Anmeldefenster wurde blockiert',
    'embedded.deviceApprovalExpired': 'Die Gerätebestätigung ist abgelaufen',
    'error.generic': 'Etwas ist schiefgelaufen',
    'error.emailCooldown': 'Bitte in {n} Sekunden erneut versuchen',
  })

  it("shows the wallet's own messages in the active locale", () => {
    expect(shownMessage(german, INVALID_EMAIL_MESSAGE)).toBe('Ungültige E-Mail-Adresse')
    expect(shownMessage(german, SOCIAL_POPUP_BLOCKED)).toBe('Das Anmeldefenster wurde blockiert')
    expect(shownError(german, new Error(DEVICE_APPROVAL_EXPIRED_MESSAGE))).toBe('Die Gerätebestätigung ist abgelaufen')
    expect(shownError(german, new Error(REQUEST_ABORTED_MESSAGE))).toBe('Etwas ist schiefgelaufen')
    expect(shownError(german, new Error('Please try again after 18 seconds'))).toBe('Bitte in 18 Sekunden erneut versuchen')
  })

  it("keeps English in English, and latchd's or the frame's answers as they came", () => {
    const english = latchIn('en')
    expect(shownMessage(english, INVALID_EMAIL_MESSAGE)).toBe(embeddedStrings['embedded.invalidEmail'])
    expect(shownError(english, new Error('Please try again after 18 seconds'))).toBe('Please try again after 18 seconds')
    expect(shownError(german, new Error('Invalid or expired code'))).toBe('Invalid or expired code')
    expect(shownError(german, 'not an error')).toBe('An error occurred')
  })
})
