import { describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import type { TokenBalance } from '@latchkit/core'
import { createConnectedFakeLatch } from '../../test/createFakeLatch'
import { createFakeAccountData } from '../../test/fakeAccountData'
import { renderWithLatch } from '../../test/render'
import { AccountButton } from './AccountButton'

const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const balances: TokenBalance[] = [
  { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', price: 3000, quantity: { decimals: '18', numeric: '1.234' }, iconUrl: '' },
  { name: 'USD Coin', symbol: 'USDC', chainId: 'eip155:1', address: `eip155:1:${usdc.toLowerCase()}`, price: 1, quantity: { decimals: '6', numeric: '1234.5678' }, iconUrl: '' },
]

describe('AccountButton', () => {
  it('truncates the address with charsStart/charsEnd (default 4 + 6)', () => {
    renderWithLatch(<AccountButton charsStart={8} charsEnd={2} />, { latch: createConnectedFakeLatch() })
    expect(screen.getByTestId('latch-account-button-address').textContent).toBe('0x123456…78')
  })

  it('hides the balance with balance="hide"', () => {
    renderWithLatch(<AccountButton balance="hide" />, { latch: createConnectedFakeLatch() })
    expect(screen.queryByTestId('latch-account-button-balance')).toBeNull()
  })

  it("shows the tokens option's token instead of the native balance on its network", async () => {
    const latch = createConnectedFakeLatch({ accountData: createFakeAccountData({ balances }), latchOptions: { tokens: { 'eip155:1': { address: usdc } } } })
    renderWithLatch(<AccountButton />, { latch })
    await waitFor(() => expect(screen.getByTestId('latch-account-button-balance').textContent).toBe('1,234.567 USDC'))
    expect(screen.getByTestId('latch-account-button-balance').dataset.token).toBe(usdc)
  })

  it('keeps the native balance on a network without a token, and while the account does not hold it', async () => {
    const elsewhere = createConnectedFakeLatch({ accountData: createFakeAccountData({ balances }), latchOptions: { tokens: { 'eip155:8453': { address: usdc } } } })
    renderWithLatch(<AccountButton />, { latch: elsewhere })
    expect(screen.getByTestId('latch-account-button-balance').textContent).toBe('1.234 ETH')
  })
})
