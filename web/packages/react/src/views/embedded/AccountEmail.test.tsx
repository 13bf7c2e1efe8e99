import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createLatch, type Latch } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { createConnectedFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const latches: Latch[] = []

afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
})

describe('Account view: Update email', () => {
  it('shows the login e-mail and Update email for the e-mail wallet, which opens UpdateEmail', async () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2' })
    latches.push(latch)
    const wallet = latch._internal.embedded!
    // A frame whose visitor is signed in.
    const request = vi.fn(async (name: string) => {
      if (name !== 'GET_USER') throw new Error(`unexpected ${name}`)
      return { email: 'visitor@example.com', address: ADDRESS, chainId: 31337, accounts: [] }
    })
    vi.spyOn(wallet, 'frame').mockResolvedValue({ request, signOut: async () => undefined } as never)
    await act(() => latch._internal.connection.connect(wallet.connectorId, { chainId: 31337 }))
    expect(latch.getState().account.status).toBe('connected')
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <ConnectButton />
      </LatchProvider>,
    )
    act(() => void latch.open({ view: 'Account' }))
    const row = await screen.findByTestId('latch-account-email')
    expect(row.textContent).toContain('visitor@example.com')
    fireEvent.click(screen.getByTestId('latch-account-update-email'))
    await waitFor(() => expect(latch.getState().view).toBe('UpdateEmail'))
    expect(await screen.findByTestId('latch-view-UpdateEmail')).toBeTruthy()
  })

  it('has no Update email for another wallet', async () => {
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'Account' }))
    await screen.findByTestId('latch-view-Account')
    expect(screen.queryByTestId('latch-account-update-email')).toBeNull()
  })
})
