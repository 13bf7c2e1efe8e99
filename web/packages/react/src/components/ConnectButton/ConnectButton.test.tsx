import { describe, expect, it } from 'vitest'
import { act, screen, within } from '@testing-library/react'
import { createConnectedFakeLatch, createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { ConnectButton } from './ConnectButton'
import { ConnectButtonRenderer } from './ConnectButtonRenderer'

describe('ConnectButton', () => {
  it('shows "Connect Wallet" from latch.t when disconnected', () => {
    renderWithLatch(<ConnectButton />)
    expect(screen.getByRole('button', { name: 'Connect Wallet' }).dataset.testid).toBe('latch-connect-button')
  })

  it("takes its texts from the latch's catalogue", () => {
    // The active locale's catalogue is state (setLocale puts it there); the button reads it through useT.
    const latch = createFakeLatch({ state: { locale: 'de', catalogue: { 'button.connect': 'Wallet verbinden' } } })
    renderWithLatch(<ConnectButton />, { latch })
    expect(screen.getByTestId('latch-connect-button').textContent).toBe('Wallet verbinden')
  })

  it('shows the loading label while connecting', () => {
    renderWithLatch(<ConnectButton />, { latch: createFakeLatch({ state: { account: { status: 'connecting' } } }) })
    expect(screen.getByTestId('latch-connect-button').textContent).toBe('Connecting...')
  })

  it('says "Connect Wallet" while a WalletConnect QR code is only on offer, "Connecting..." once a wallet connects', () => {
    const latch = createFakeLatch({ walletConnect: true, state: { account: { status: 'connecting' } } })
    renderWithLatch(<ConnectButton />, { latch })
    act(() => latch.setState({ walletConnect: { uri: 'wc:abc@2', expiresAt: Date.now() + 60_000, pending: true, error: null } }))
    expect(screen.getByTestId('latch-connect-button').textContent).toBe('Connect Wallet')
    expect(screen.getByTestId('latch-connect-button').getAttribute('aria-busy')).toBeNull()
    act(() => latch.setState({ walletConnect: { uri: undefined, expiresAt: undefined, pending: false, error: null } }))
    expect(screen.getByTestId('latch-connect-button').textContent).toBe('Connecting...')
  })

  it('shows avatar, truncated address (4 + 6) and balance once connected', () => {
    const { container } = renderWithLatch(<ConnectButton />, { latch: createConnectedFakeLatch() })
    expect(screen.queryByTestId('latch-connect-button')).toBeNull()
    const button = screen.getByTestId('latch-account-button')
    expect(within(button).getByTestId('latch-account-button-address').textContent).toBe('0x12…345678')
    expect(within(button).getByTestId('latch-account-button-balance').textContent).toBe('1.234 ETH')
    expect(container.querySelector('svg.latch-avatar')).not.toBeNull()
  })

  it('hides the balance with balance="hide"', () => {
    renderWithLatch(<ConnectButton balance="hide" />, { latch: createConnectedFakeLatch() })
    expect(screen.queryByTestId('latch-account-button-balance')).toBeNull()
  })

  it('takes size, disabled and the labels', async () => {
    const { user, latch } = renderWithLatch(<ConnectButton size="sm" disabled label="Sign in" />)
    const button = screen.getByTestId('latch-connect-button') as HTMLButtonElement
    expect(button.textContent).toBe('Sign in')
    expect(button.dataset.size).toBe('sm')
    expect(button.disabled).toBe(true)
    await user.click(button)
    expect(latch.getState().open).toBe(false)
    renderWithLatch(<ConnectButton loadingLabel="Hold on" />, { latch: createFakeLatch({ state: { account: { status: 'connecting' } } }) })
    expect(screen.getAllByTestId('latch-connect-button')[1]!.textContent).toBe('Hold on')
  })

  it('passes disabled and the address truncation (charsStart/charsEnd) to the account button', () => {
    renderWithLatch(<ConnectButton size="sm" disabled charsStart={6} charsEnd={4} />, { latch: createConnectedFakeLatch() })
    const button = screen.getByTestId('latch-account-button') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(screen.getByTestId('latch-account-button-address').textContent).toBe('0x1234…5678')
  })

  it('switches from connect to account when the latch connects', async () => {
    const { latch } = renderWithLatch(<ConnectButton />)
    const { act } = await import('@testing-library/react')
    await act(() => latch.connectWallet(latch.getState().wallets[1]!))
    expect(screen.getByTestId('latch-account-button-address').textContent).toBe('0x12…345678')
  })

  it('opens the modal on the Connect view with the wallets in order', async () => {
    const { user } = renderWithLatch(<ConnectButton />)
    await user.click(screen.getByTestId('latch-connect-button'))
    const dialog = screen.getByRole('dialog', { name: 'Connect Wallet' })
    const names = within(dialog)
      .getAllByTestId(/^latch-wallet-/)
      .filter((el) => el.tagName === 'BUTTON')
      .map((el) => el.querySelector('.latch-list-item-name')?.textContent)
    expect(names).toEqual(['Rabby', 'MetaMask', 'Trust Wallet'])
  })

  it('opens the Account view when connected', async () => {
    const { user } = renderWithLatch(<ConnectButton />, { latch: createConnectedFakeLatch() })
    await user.click(screen.getByTestId('latch-account-button'))
    expect(screen.getByTestId('latch-view-Account')).toBeTruthy()
  })

  it('renders inside a real WagmiProvider (no connectors, no network at render)', () => {
    renderWithLatch(<ConnectButton />, { wagmi: true })
    expect(screen.getByRole('button', { name: 'Connect Wallet' })).toBeTruthy()
  })
})

describe('ConnectButton.Custom / ConnectButtonRenderer', () => {
  it('is the same render-prop component', () => {
    expect(ConnectButton.Custom).toBe(ConnectButtonRenderer)
  })

  it('gives account, status, mounted and modal openers', async () => {
    const seen: Array<{ mounted: boolean; status: string; address: string | undefined }> = []
    const { user, latch } = renderWithLatch(
      <ConnectButton.Custom>
        {({ account, status, mounted, openAccountModal, openConnectModal }) => {
          seen.push({ mounted, status, address: account?.displayAddress })
          return (
            <button type="button" data-testid="latch-custom" onClick={account ? openAccountModal : openConnectModal}>
              {account ? `${account.displayAddress} ${account.displayBalance}` : 'custom connect'}
            </button>
          )
        }}
      </ConnectButton.Custom>,
      { latch: createConnectedFakeLatch() },
    )
    expect(screen.getByTestId('latch-custom').textContent).toBe('0x12…345678 1.234 ETH')
    expect(seen.at(-1)).toEqual({ mounted: true, status: 'connected', address: '0x12…345678' })
    await user.click(screen.getByTestId('latch-custom'))
    expect(latch.getState()).toMatchObject({ open: true, view: 'Account' })
  })
})
