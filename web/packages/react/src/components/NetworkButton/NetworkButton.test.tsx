import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { renderWithLatch } from '../../test/render'
import { AccountButton } from '../AccountButton/AccountButton'
import { NetworkButton } from './NetworkButton'

describe('NetworkButton', () => {
  it('shows the active network and opens the read-only Networks view', async () => {
    const { user } = renderWithLatch(<NetworkButton />)
    const button = screen.getByTestId('latch-network-button')
    expect(button.textContent).toBe('Ethereum')
    await user.click(button)
    expect(screen.getByRole('dialog', { name: 'Choose network' })).toBeTruthy()
    const active = screen.getByTestId('latch-network-1')
    expect(active.getAttribute('aria-current')).toBe('true')
    expect(active.textContent).toContain('Active')
    expect(screen.getByTestId('latch-network-11155111').textContent).toContain('Testnet')
    expect(screen.getByTestId('latch-network-8453').textContent).not.toContain('Testnet')
  })
})

describe('AccountButton', () => {
  it('renders nothing when disconnected', () => {
    renderWithLatch(<AccountButton />)
    expect(screen.queryByTestId('latch-account-button')).toBeNull()
  })
})
