import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createLatch, type Latch } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const latches: Latch[] = []

afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
})

describe('EmailVerifyOtp: the recovery password of a new device', () => {
  it("asks for it when the frame says 'Recovery password required', shows a wrong one's message, and connects with the right one", async () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2' })
    latches.push(latch)
    const wallet = latch._internal.embedded!
    // The frame of a wallet in password recovery mode, on a device it has not seen.
    let recovered = false
    const request = vi.fn(async (name: string, payload?: { recoveryPassword?: string }) => {
      if (name !== 'GET_USER') throw new Error(`unexpected ${name}`)
      if (!recovered) {
        if (payload?.recoveryPassword === undefined) throw new Error('Recovery password required')
        if (payload.recoveryPassword !== 'correct horse') throw new Error('Wrong recovery password')
        recovered = true
      }
      return { email: 'visitor@example.com', address: ADDRESS, chainId: 31337, accounts: [] }
    })
    vi.spyOn(wallet, 'frame').mockResolvedValue({ request, signOut: async () => undefined } as never)
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <ConnectButton />
      </LatchProvider>,
    )
    act(() => {
      wallet.store.setState({ step: 'recoveryPassword', email: 'visitor@example.com' })
      void latch.open({ view: 'EmailVerifyOtp' })
    })
    const form = await screen.findByTestId('latch-recovery-password')
    expect(form.textContent).toContain('Recovery password required')
    const input = screen.getByLabelText('Recovery password')
    expect(input.getAttribute('type')).toBe('password')

    fireEvent.change(input, { target: { value: 'wrong password' } })
    fireEvent.click(screen.getByTestId('latch-recovery-password-submit'))
    expect((await screen.findByTestId('latch-recovery-password-error')).textContent).toBe('Wrong recovery password')

    fireEvent.change(screen.getByLabelText('Recovery password'), { target: { value: 'correct horse' } })
    fireEvent.click(screen.getByTestId('latch-recovery-password-submit'))
    await waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    expect(request).toHaveBeenCalledWith('GET_USER', { chainId: 'eip155:31337', recoveryPassword: 'correct horse' })
    expect(wallet.store.getState().step).toBe('connected')
  })
})
