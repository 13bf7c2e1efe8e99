import { describe, expect, it, vi } from 'vitest'
import { act, screen } from '@testing-library/react'
import { ConnectButton } from '../components/ConnectButton/ConnectButton'
import { connectedAddress, createConnectedFakeLatch } from '../test/createFakeLatch'
import { renderWithLatch } from '../test/render'

async function openAccount() {
  const latch = createConnectedFakeLatch()
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-account-button'))
  return result
}

describe('Account view', () => {
  it('shows avatar, truncated address, balance and network', async () => {
    await openAccount()
    const view = screen.getByTestId('latch-view-Account')
    expect(view.querySelector('svg.latch-avatar')).not.toBeNull()
    expect(screen.getByTestId('latch-account-address').textContent).toBe('0x12…345678')
    expect(screen.getByTestId('latch-account-balance').textContent).toBe('1.234 ETH')
    expect(screen.getByTestId('latch-account-network').textContent).toBe('Ethereum')
  })

  it('copies the full address and shows a success toast', async () => {
    const { user, latch } = await openAccount()
    await user.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(latch.copied).toEqual([connectedAddress])
    expect((await screen.findByRole('status')).textContent).toBe('Address copied')
  })

  it('disconnects', async () => {
    const { user, latch } = await openAccount()
    const disconnect = vi.spyOn(latch, 'disconnect')
    await user.click(screen.getByRole('button', { name: 'Disconnect' }))
    expect(disconnect).toHaveBeenCalledOnce()
    expect(screen.getByTestId('latch-connect-button')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('the network badge opens Networks, and back returns to Account', async () => {
    const { user } = await openAccount()
    await user.click(screen.getByTestId('latch-account-network'))
    expect(screen.getByTestId('latch-view-Networks')).toBeTruthy()
    await user.click(screen.getByTestId('latch-modal-back'))
    expect(screen.getByTestId('latch-view-Account')).toBeTruthy()
  })

  it('the avatar is deterministic per address', async () => {
    const { latch } = await openAccount()
    const first = screen.getByTestId('latch-view-Account').querySelector('svg.latch-avatar stop')!.getAttribute('stop-color')
    act(() => latch.close())
    act(() => latch.open())
    const again = screen.getByTestId('latch-view-Account').querySelector('svg.latch-avatar stop')!.getAttribute('stop-color')
    expect(again).toBe(first)
  })
})
