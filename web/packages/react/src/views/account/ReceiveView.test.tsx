import { describe, expect, it } from 'vitest'
import { act, screen } from '@testing-library/react'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { connectedAddress, createConnectedFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

describe('Receive view', () => {
  it('shows the address as a QR code and text, copies it, and lists the networks it is valid on', async () => {
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'WalletReceive' }))
    await screen.findByTestId('latch-view-WalletReceive')
    const qr = screen.getByRole('img', { name: 'QR code of your address' })
    // A version ≥ 3 code (42 characters at ECC M) with a 2-module border: at least 29 + 4 modules wide.
    expect(Number(qr.getAttribute('viewBox')!.split(' ')[2])).toBeGreaterThanOrEqual(33)
    expect(qr.querySelector('path')!.getAttribute('d')!.length).toBeGreaterThan(100)
    expect(screen.getByTestId('latch-receive-address').textContent).toBe(connectedAddress)
    await user.click(screen.getByTestId('latch-receive-copy'))
    expect(latch.copied).toEqual([connectedAddress])
    expect([...screen.getByTestId('latch-receive-networks').querySelectorAll('li')].map((li) => li.getAttribute('title'))).toEqual(['Ethereum', 'Base', 'Sepolia'])
    const dialog = screen.getByRole('dialog')
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Receive')
  })
})
