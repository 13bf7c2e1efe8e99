import { describe, expect, it } from 'vitest'
import { messages, t } from './messages'

describe('messages', () => {
  it('keeps the spec strings verbatim', () => {
    expect(messages.en['alert.projectIdNotConfigured']).toBe('Project ID Not Configured')
    expect(messages.en['alert.invalidAppConfiguration']).toBe('Invalid App Configuration')
    expect(messages.en['alert.localConfigurationIgnored']).toBe('Local configuration ignored')
    expect(messages.en['account.failedToFetchTransactions']).toBe('Failed to fetch transactions')
    expect(messages.en['siwx.authenticating']).toBe('Authenticating...')
    expect(messages.en['error.actionNotAllowed']).toBe('Action not allowed')
    expect(messages.en['connecting.declined']).toBe('Connection declined')
    expect(messages.en['button.tryAgain']).toBe('Try again')
    expect(messages.en['connect.allWallets']).toBe('All wallets')
    expect(messages.en['connect.searchWallet']).toBe('Search wallet')
    expect(messages.en['button.copyAddress']).toBe('Copy address')
    expect(messages.en['button.disconnect']).toBe('Disconnect')
  })

  it('interpolates {name} placeholders and leaves unknown ones visible', () => {
    expect(t('error.emailCooldown', { n: 12 })).toBe('Please try again after 12 seconds')
    expect(t('connect.allWalletsCount', { count: 420 })).toBe('All wallets (420)')
    expect(t('error.emailCooldown')).toBe('Please try again after {n} seconds')
    expect(t('error.emailCooldown', {})).toBe('Please try again after {n} seconds')
  })
})
