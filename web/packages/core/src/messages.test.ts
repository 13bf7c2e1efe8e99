import { describe, expect, it } from 'vitest'
import { messages, t } from './messages'

describe('messages', () => {
  // The dialog's spec strings are checked where they live (react/src/components/LatchModal/strings.test.ts).
  it('keeps the spec strings verbatim', () => {
    expect(messages.en['alert.projectIdNotConfigured']).toBe('Project ID Not Configured')
    expect(messages.en['alert.invalidAppConfiguration']).toBe('Invalid App Configuration')
    expect(messages.en['alert.localConfigurationIgnored']).toBe('Local configuration ignored')
    expect(messages.en['send.tokenRequired']).toBe('A token is required')
    expect(messages.en['connecting.declined']).toBe('Connection declined')
  })

  it('interpolates {name} placeholders and leaves unknown ones visible', () => {
    expect(t('error.emailCooldown', { n: 12 })).toBe('Please try again after 12 seconds')
    expect(t('names.registerError', { name: 'alice.latch' })).toBe('Error registering name alice.latch')
    expect(t('error.emailCooldown')).toBe('Please try again after {n} seconds')
    expect(t('error.emailCooldown', {})).toBe('Please try again after {n} seconds')
  })
})
