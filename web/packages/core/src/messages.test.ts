import { describe, expect, it } from 'vitest'
import { messages, t } from './messages'

describe('messages', () => {
  // The dialog's spec strings are checked where they live (react/src/components/LatchModal/strings.test.ts).
  it('keeps the spec strings verbatim', () => {
    expect(messages.en['alert.projectIdNotConfigured']).toBe('Project ID Not Configured')
    expect(messages.en['alert.invalidAppConfiguration']).toBe('Invalid App Configuration')
    expect(messages.en['alert.localConfigurationIgnored']).toBe('Local configuration ignored')
    expect(messages.en['error.actionNotAllowed']).toBe('Action not allowed')
    expect(messages.en['connecting.declined']).toBe('Connection declined')
  })

  it('interpolates {name} placeholders and leaves unknown ones visible', () => {
    expect(t('error.emailCooldown', { n: 12 })).toBe('Please try again after 12 seconds')
    expect(t('connect.allWalletsCount', { count: 420 })).toBe('All wallets (420)')
    expect(t('error.emailCooldown')).toBe('Please try again after {n} seconds')
    expect(t('error.emailCooldown', {})).toBe('Please try again after {n} seconds')
  })
})
