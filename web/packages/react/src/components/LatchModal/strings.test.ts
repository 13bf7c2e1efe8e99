import { describe, expect, it } from 'vitest'
import { modalStrings } from './strings'

describe('the dialog strings', () => {
  it('keep the spec strings verbatim', () => {
    expect(modalStrings['account.failedToFetchTransactions']).toBe('Failed to fetch transactions')
    expect(modalStrings['siwx.authenticating']).toBe('Authenticating...')
    expect(modalStrings['button.tryAgain']).toBe('Try again')
    expect(modalStrings['connect.allWallets']).toBe('All wallets')
    expect(modalStrings['connect.searchWallet']).toBe('Search wallet')
    expect(modalStrings['button.copyAddress']).toBe('Copy address')
    expect(modalStrings['button.disconnect']).toBe('Disconnect')
  })
})
