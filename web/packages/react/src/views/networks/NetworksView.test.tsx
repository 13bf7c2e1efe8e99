import { describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderWithLatch } from '../../test/render'
import { createConnectedFakeLatch, createFakeLatch } from '../../test/createFakeLatch'
import { networkCaipId } from '@latchkit/core'
import { base } from 'viem/chains'

describe('NetworksView', () => {
  it('lists the networks with latchd images, testnet tags and the active one marked', async () => {
    const { latch } = renderWithLatch(<></>)
    act(() => void latch.open({ view: 'Networks' }))
    const list = screen.getByRole('list', { name: 'Choose network' })
    const rows = within(list).getAllByRole('button')
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['latch-network-1', 'latch-network-8453', 'latch-network-11155111'])
    expect(screen.getByTestId('latch-network-1').getAttribute('aria-current')).toBe('true')
    expect(screen.getByTestId('latch-network-8453').getAttribute('aria-current')).toBeNull()
    expect(screen.getByTestId('latch-network-11155111').textContent).toContain('Testnet')
    const img = screen.getByTestId('latch-network-8453').querySelector('img')
    expect(img?.getAttribute('src')).toBe(`https://latchd.test/public/getAssetImage/${encodeURIComponent(networkCaipId(base))}`)
  })

  it('falls back to a monogram when the network image fails', () => {
    const { latch } = renderWithLatch(<></>)
    act(() => void latch.open({ view: 'Networks' }))
    const row = screen.getByTestId('latch-network-8453')
    fireEvent.error(row.querySelector('img')!)
    expect(row.querySelector('img')).toBeNull()
    expect(within(row).getByTestId('latch-wallet-placeholder').textContent).toBe('B')
  })

  it('a click switches: pending while the wallet answers, then closes (Networks was the first view)', async () => {
    const latch = createFakeLatch({ switchNetwork: 'pending' })
    const { user } = renderWithLatch(<></>, { latch })
    act(() => void latch.open({ view: 'Networks' }))
    await user.click(screen.getByTestId('latch-network-8453'))
    expect(latch.switchCalls).toEqual([8453])
    expect(screen.getByTestId('latch-network-8453').getAttribute('aria-busy')).toBe('true')
    expect(screen.getByTestId('latch-network-pending-8453')).toBeTruthy()
    expect((screen.getByTestId('latch-network-1') as HTMLButtonElement).disabled).toBe(true)
    // A second click while pending does not start another switch.
    await user.click(screen.getByTestId('latch-network-11155111'))
    expect(latch.switchCalls).toEqual([8453])

    await act(async () => latch.pendingSwitches[0]!.resolve())
    await waitFor(() => expect(screen.queryByTestId('latch-modal')).toBeNull())
    expect(latch.getState().activeNetwork.id).toBe(8453)
  })

  it('opened from Account: success goes back to Account with the new network', async () => {
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<></>, { latch })
    act(() => void latch.open())
    await user.click(screen.getByTestId('latch-account-network'))
    screen.getByTestId('latch-view-Networks')
    await user.click(screen.getByTestId('latch-network-8453'))
    await screen.findByTestId('latch-view-Account')
    expect(screen.getByTestId('latch-account-network').textContent).toContain('Base')
  })

  it('a declined switch goes back one view and shows the toast', async () => {
    const latch = createConnectedFakeLatch({ switchNetwork: 'reject' })
    const { user } = renderWithLatch(<></>, { latch })
    act(() => void latch.open())
    await user.click(screen.getByTestId('latch-account-network'))
    await user.click(screen.getByTestId('latch-network-8453'))
    await screen.findByTestId('latch-view-Account')
    expect(latch.getState().toast).toMatchObject({ message: 'Switch declined', variant: 'error' })
    expect(latch.getState().activeNetwork.id).toBe(1)
  })
})

describe('UnsupportedChainView', () => {
  it('explains the problem and switches to a listed network, then closes', async () => {
    const latch = createConnectedFakeLatch({ state: { unsupportedChainId: 1337 } })
    const onSwitched = vi.fn()
    latch.onNetworkSwitched(onSwitched)
    const { user } = renderWithLatch(<></>, { latch })
    act(() => void latch.open({ view: 'UnsupportedChain' }))
    expect(screen.getByRole('dialog', { name: 'Switch network' })).toBeTruthy()
    expect(screen.getByTestId('latch-unsupported-chain-message').textContent).toBe(
      'This app doesn’t support your current network. Switch to an available option to continue.',
    )
    // The wallet is on none of the listed networks, so none is marked active.
    expect(screen.getByTestId('latch-network-1').getAttribute('aria-current')).toBeNull()
    await user.click(screen.getByTestId('latch-network-11155111'))
    await waitFor(() => expect(screen.queryByTestId('latch-modal')).toBeNull())
    expect(onSwitched).toHaveBeenCalledWith(expect.objectContaining({ network: expect.objectContaining({ id: 11155111 }) }))
    expect(latch.getState().unsupportedChainId).toBeUndefined()
  })
})
