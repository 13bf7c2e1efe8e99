// <WalletButton>: one named wallet, installed (direct) or through WalletConnect (the modal on that wallet).
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFakeWallet } from '../../../../core/src/connection/test/fakeWallet'
import { createHeadlessLatch, stubRegistry, trustId } from '../../test/headlessLatch'
import { LatchProvider } from '../LatchProvider/LatchProvider'
import { WalletButton } from './WalletButton'

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  stubRegistry()
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function renderButton(wallet: string, props: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const { latch, script } = createHeadlessLatch()
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <WalletButton wallet={wallet} {...props} />
    </LatchProvider>,
  )
  return { latch, script, user: userEvent.setup() }
}

describe('WalletButton', () => {
  it('connects an installed wallet directly: named after it, themed, the modal never opening', async () => {
    createFakeWallet({ rdns: 'io.metamask', name: 'MetaMask' }).announce()
    const onSuccess = vi.fn()
    const { latch, user } = renderButton('metamask', { onSuccess })
    const button = await screen.findByRole('button', { name: 'Connect MetaMask' })
    expect(button.closest('[data-latch]')).not.toBeNull()
    await user.click(button)
    await waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    expect(onSuccess).toHaveBeenCalledWith(expect.objectContaining({ name: 'MetaMask', installed: true }))
    expect(latch.getState().open).toBe(false)
    expect(screen.queryByRole('dialog')).toBeNull()
    latch.destroy()
  })

  it('a wallet not installed opens the modal on its WalletConnect view; the button is disabled until the wallet connects', async () => {
    const { latch, script, user } = renderButton(trustId)
    const button = await screen.findByRole('button', { name: 'Connect Trust Wallet' })
    await user.click(button)
    await screen.findByRole('dialog')
    expect(latch.getState().view).toBe('ConnectingWalletConnect')
    expect(latch.getState().viewData.wallet).toMatchObject({ id: trustId })
    expect(screen.getByTestId(`latch-wallet-button-${trustId}`)).toMatchObject({ disabled: true, textContent: 'Connecting Trust Wallet…' })
    await waitFor(() => expect(latch.getState().walletConnect?.uri).toBeDefined())
    act(() => script.approve!())
    await waitFor(() => expect(latch.getState().account.status).toBe('connected'))
    await waitFor(() => expect(screen.getByTestId(`latch-wallet-button-${trustId}`)).toMatchObject({ disabled: false }))
    latch.destroy()
  })

  it('an unknown wallet says so, and connecting it fails with LatchUnknownWalletError', async () => {
    const onError = vi.fn()
    const { latch, user } = renderButton('nosuchwallet', { onError })
    expect((await screen.findByRole('alert')).textContent).toBe('“nosuchwallet” is not a wallet Latch knows')
    await user.click(screen.getByRole('button', { name: 'Connect nosuchwallet' }))
    await waitFor(() => expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'LatchUnknownWalletError' })))
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })
})
