import { describe, expect, it, vi } from 'vitest'
import { act, screen, within } from '@testing-library/react'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

async function openConnect(latch = createFakeLatch()) {
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-connect-button'))
  return result
}

describe('Connect view', () => {
  it('tags installed and recent wallets and shows the All Wallets count', async () => {
    await openConnect()
    expect(within(screen.getByTestId('latch-wallet-recent-rabby')).getByTestId('latch-wallet-tag').textContent).toBe('Recent')
    expect(within(screen.getByTestId('latch-wallet-metamask')).getByTestId('latch-wallet-tag').textContent).toBe('Installed')
    expect(within(screen.getByTestId('latch-wallet-trust')).queryByTestId('latch-wallet-tag')).toBeNull()
    expect((await screen.findByTestId('latch-all-wallets-count')).textContent).toBe('90+')
  })

  it('clicking a wallet calls connectWallet and shows ConnectingExternal', async () => {
    const latch = createFakeLatch({ connect: 'pending' })
    const spy = vi.spyOn(latch, 'connectWallet')
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-metamask'))
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ id: 'metamask' }))
    expect(screen.getByRole('dialog', { name: 'MetaMask' })).toBeTruthy()
    expect(screen.getByTestId('latch-connect-pending').textContent).toBe('Continue in MetaMask')
    expect(screen.getByTestId('latch-modal-back')).toBeTruthy()
    // success is core's: it switches to Account
    await act(async () => latch.pendingConnects[0]!.resolve())
    expect(screen.getByTestId('latch-view-Account')).toBeTruthy()
  })

  it('a rejection shows "Connection declined" and Retry connects again', async () => {
    const latch = createFakeLatch({ connect: 'reject' })
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-metamask'))
    expect((await screen.findByTestId('latch-connect-error')).textContent).toBe('Connection declined')
    const spy = vi.spyOn(latch, 'connectWallet')
    latch.options.connect = 'resolve'
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(spy).toHaveBeenCalledTimes(1)
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ id: 'metamask' }))
    expect(await screen.findByTestId('latch-view-Account')).toBeTruthy()
  })

  it('an unknown failure shows the error message', async () => {
    const latch = createFakeLatch({ connect: async () => Promise.reject(new Error('Connector not found')) })
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-trust'))
    expect((await screen.findByTestId('latch-connect-error')).textContent).toBe('Connection failed')
    expect(screen.getByText('Connector not found')).toBeTruthy()
  })
})
