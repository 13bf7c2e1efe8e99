// Issue 24: the widget in another locale. A fake latch switched to German
// (its real catalogue chunk and Intl formats) shows the Connect view and the
// account button in German; back in English it is the English output again.
// The catalogues are still being translated, so the expected text is read from
// the loaded catalogue (English where it lacks a key), never written here.
import { describe, expect, it } from 'vitest'
import { act, screen, within } from '@testing-library/react'
import { messages, type MessageKey, type TokenBalance, type Transaction } from '@latchkit/core'
import { AccountButton } from '../components/AccountButton/AccountButton'
import { ConnectButton } from '../components/ConnectButton/ConnectButton'
import { connectedAddress, createConnectedFakeLatch, createFakeLatch, type FakeLatch } from '../test/createFakeLatch'
import { createFakeAccountData } from '../test/fakeAccountData'
import { MAINNET_ID } from '../test/ids'
import { modalStrings, type ModalStringKey } from '../components/LatchModal/strings'
import { renderWithLatch } from '../test/render'

/** What a core key reads in the latch's active catalogue: the locale's text, or English where it has none yet. */
function expected(latch: FakeLatch, key: MessageKey | ModalStringKey): string {
  const english: Record<string, string> = { ...messages.en, ...modalStrings }
  return latch.getState().catalogue?.[key] ?? english[key]!
}

async function german(latch: FakeLatch): Promise<void> {
  await act(() => latch.setLocale('de'))
  expect(latch.getState().locale).toBe('de')
  expect(latch.getState().catalogue, 'the German catalogue is loaded').toBeDefined()
}

describe('a locale other than English', () => {
  it('the Connect view and the connect button read the active catalogue', async () => {
    const latch = createFakeLatch({ connect: 'pending' })
    await german(latch)
    // At least the button is translated, so the test cannot pass on English alone.
    expect(latch.getState().catalogue?.['button.connect']).toBeTruthy()
    expect(expected(latch, 'button.connect')).not.toBe(messages.en['button.connect'])

    const { user } = renderWithLatch(<ConnectButton />, { latch })
    expect(screen.getByTestId('latch-connect-button').textContent).toBe(expected(latch, 'button.connect'))
    await user.click(screen.getByTestId('latch-connect-button'))
    await screen.findByTestId('latch-view-Connect', {}, { timeout: 5000 })
    expect(screen.getByRole('dialog').querySelector('.latch-header-title')?.textContent).toBe(expected(latch, 'view.Connect'))
    expect(screen.getByTestId('latch-all-wallets').querySelector('.latch-list-item-name')?.textContent).toBe(expected(latch, 'connect.allWallets'))
    expect(screen.getByTestId('latch-what-is-a-wallet').textContent).toBe(expected(latch, 'connect.haveNoWallet'))
  })

  it('the account button writes the balance with German digits, the address left-to-right', async () => {
    const latch = createConnectedFakeLatch()
    act(() => latch.setState({ account: { ...latch.getState().account, balance: { formatted: '9999.979', symbol: 'ETH' } } }))
    renderWithLatch(<AccountButton />, { latch })
    expect(screen.getByTestId('latch-account-button-balance').textContent).toBe('9999.979 ETH')
    const shortAddress = screen.getByTestId('latch-account-button-address').textContent

    await german(latch)
    const balance = screen.getByTestId('latch-account-button-balance')
    expect(balance.textContent).toBe('9.999,979 ETH')
    expect(balance.getAttribute('dir')).toBe('ltr')
    const address = screen.getByTestId('latch-account-button-address')
    expect(address.textContent).toBe(shortAddress)
    expect(address.getAttribute('dir')).toBe('ltr')

    // Back to English: the English output, unchanged.
    await act(() => latch.setLocale('en'))
    expect(screen.getByTestId('latch-account-button-balance').textContent).toBe('9999.979 ETH')
  })

  it('the account tabs: quantities, fiat, history dates and month titles in German', async () => {
    const balances: TokenBalance[] = [
      { name: 'Ether', symbol: 'ETH', chainId: MAINNET_ID, value: 3702.6, price: 3000, quantity: { decimals: '18', numeric: '1.2342' }, iconUrl: '' },
    ]
    const minedAt = new Date(new Date().getFullYear() - 1, 2, 9, 12)
    const received: Transaction = {
      id: 'aa',
      metadata: { operationType: 'receive', hash: '0xaa', chain: MAINNET_ID, minedAt: minedAt.toISOString(), sentFrom: connectedAddress, sentTo: connectedAddress, status: 'confirmed', nonce: 1 },
      transfers: [{ fungible_info: { name: 'USD Coin', symbol: 'USDC' }, direction: 'in', quantity: { numeric: '1234.5' } }],
    }
    const latch = createConnectedFakeLatch({ accountData: createFakeAccountData({ balances, history: { '': { data: [received], next: null } } }, () => {}) })
    await german(latch)
    const formats = latch.getState().formats!
    const { user } = renderWithLatch(<AccountButton />, { latch })
    await user.click(screen.getByTestId('latch-account-button'))

    // The tabs, the account module and the history come in lazy chunks: up to 5 s on a busy machine.
    expect((await screen.findByTestId('latch-tokens-total', {}, { timeout: 5000 })).textContent).toMatch(/^3\.702,60\s\$$/)
    expect(screen.getByTestId('latch-token-quantity').textContent).toBe('1,234 ETH')
    expect(screen.getByTestId('latch-token-value').textContent).toMatch(/^3\.702,60\s\$$/)

    await user.click(screen.getAllByRole('tab')[2]!)
    const group = await screen.findByTestId('latch-activity-group', {}, { timeout: 5000 })
    expect(within(group).getByTestId('latch-activity-group-title').textContent).toBe(formats.monthTitle(minedAt.getFullYear(), 2))
    expect(within(group).getByTestId('latch-activity-group-title').textContent).toBe(`März ${minedAt.getFullYear()}`)
    expect(within(group).getByTestId('latch-activity-description').textContent).toBe('+1.234,500 USDC')
    expect(within(group).getByTestId('latch-activity-date').textContent).toBe(formats.activityDate(minedAt))
    expect(within(group).getByTestId('latch-activity-relative').textContent).toMatch(/^vor /)
  })
})
