import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import { encode } from 'uqr'
import type { LatchWallet } from '@latchkit/core'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { createFakeLatch, defaultWallets, type FakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { qrPath } from './ConnectingWalletConnectParts'

const uri = 'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303'
const encoded = encodeURIComponent(uri)
const walletConnectRow: LatchWallet = { id: 'walletConnect', name: 'WalletConnect', kind: 'walletConnect', installed: false }
const trust: LatchWallet = {
  id: 'trust',
  name: 'Trust Wallet',
  kind: 'recommended',
  installed: false,
  imageUrl: 'https://img.test/trust.png',
  mobileLink: 'trust:',
  desktopLink: 'trust-desktop://',
  webappLink: 'https://web.trust.example',
}

function fake(wallets: LatchWallet[] = [walletConnectRow, ...defaultWallets]) {
  return createFakeLatch({ walletConnect: true, state: { wallets } })
}

async function openConnect(latch: FakeLatch) {
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-connect-button'))
  return result
}

/** Core publishing a pairing URI. */
function offer(latch: FakeLatch, pairingUri = uri) {
  act(() => latch.setState({ walletConnect: { uri: pairingUri, expiresAt: Date.now() + 240_000, pending: true, error: null } }))
}

function mobile() {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')
}

afterEach(() => vi.restoreAllMocks())

describe('ConnectingWalletConnect', () => {
  it('the Connect view offers WalletConnect by QR code and opens the QR view', async () => {
    const latch = fake()
    const { user } = await openConnect(latch)
    const row = screen.getByTestId('latch-wallet-walletConnect')
    expect(within(row).getByTestId('latch-wallet-tag').textContent).toBe('QR code')
    await user.click(row)
    expect(await screen.findByTestId('latch-view-ConnectingWalletConnect')).toBeTruthy()
    expect(latch.retryCalls).toBe(1)
    // The view asks for a pairing in an effect, which may run a moment after the view is in the DOM.
    await waitFor(() => expect(latch.pairCalls).toBeGreaterThanOrEqual(1))
    // no URI yet: a placeholder, and nothing to copy
    expect(screen.getByTestId('latch-wc-qr-loading')).toBeTruthy()
    expect((screen.getByTestId('latch-wc-copy-link') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('renders exactly the pairing URI as the QR code', async () => {
    const latch = fake()
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-walletConnect'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    offer(latch)
    const svg = screen.getByTestId('latch-wc-qr-svg')
    const qr = encode(uri, { ecc: 'Q', border: 0 })
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${qr.size} ${qr.size}`)
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(qrPath(qr.data))
    expect(screen.getByRole('img', { name: 'QR code to connect with WalletConnect' })).toBe(svg)
    expect(screen.getByText('Scan this QR code with your phone')).toBeTruthy()
    // a new pairing (renewal) redraws it
    offer(latch, `${uri}&x=1`)
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(qrPath(encode(`${uri}&x=1`, { ecc: 'Q', border: 0 }).data))
  })

  it('copies the link and says so', async () => {
    const latch = fake()
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-walletConnect'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    offer(latch)
    await user.click(screen.getByTestId('latch-wc-copy-link'))
    await expect(navigator.clipboard.readText()).resolves.toBe(uri)
    expect(latch.getState().toast).toMatchObject({ message: 'Link copied', variant: 'success' })
  })

  it('a registry wallet on a computer: its logo in the QR code, and tabs for its web and desktop apps', async () => {
    const latch = fake([trust])
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-trust'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    expect(screen.getByRole('dialog', { name: 'Trust Wallet' })).toBeTruthy()
    offer(latch)
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual(['QR code', 'Web app', 'Desktop'])
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true')
    // under the logo: error correction H and a cleared centre
    const qr = encode(uri, { ecc: 'H', border: 0 })
    const svg = screen.getByTestId('latch-wc-qr-svg')
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${qr.size} ${qr.size}`)
    const hole = Math.ceil(qr.size * 0.22) + ((qr.size - Math.ceil(qr.size * 0.22)) % 2)
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(qrPath(qr.data, hole))
    expect(qrPath(qr.data, hole)).not.toBe(qrPath(qr.data))
    expect(within(screen.getByTestId('latch-wc-qr')).getByTestId('latch-wallet-placeholder')).toBeTruthy()

    await user.click(screen.getByTestId('latch-wc-platform-web'))
    const web = screen.getByTestId('latch-wc-open') as HTMLAnchorElement
    expect(web.getAttribute('href')).toBe(`https://web.trust.example/wc?uri=${encoded}`)
    expect(web.target).toBe('_blank')
    expect(web.rel).toBe('noopener noreferrer')
    expect(web.textContent).toBe('Open the web app')

    await user.click(screen.getByTestId('latch-wc-platform-desktop'))
    const desktop = screen.getByTestId('latch-wc-open') as HTMLAnchorElement
    expect(desktop.getAttribute('href')).toBe(`trust-desktop://wc?uri=${encoded}`)
    expect(desktop.target).toBe('_self')
    expect(desktop.textContent).toBe('Open Trust Wallet on this computer')
  })

  it('on a phone: the wallet’s deep link, opened in place, by itself with the first pairing only', async () => {
    mobile()
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    const latch = fake([trust])
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-trust'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Mobile', 'Web app'])
    expect(screen.getByTestId('latch-connect-pending').textContent).toBe('Continue in Trust Wallet')
    expect(screen.queryByTestId('latch-wc-open')).toBeNull() // no pairing yet
    offer(latch)
    const open = screen.getByTestId('latch-wc-open') as HTMLAnchorElement
    expect(open.getAttribute('href')).toBe(`trust://wc?uri=${encoded}`)
    expect(open.target).toBe('_self')
    expect(open.textContent).toBe('Open')
    expect(opened.mock.calls).toEqual([[`trust://wc?uri=${encoded}`, '_self']])
    // A new pairing (the visitor declined in the wallet and came back) waits for the Open button.
    offer(latch, uri.replace('7f6e', '8f6e'))
    expect(open.getAttribute('href')).toBe(`trust://wc?uri=${encodeURIComponent(uri.replace('7f6e', '8f6e'))}`)
    expect(opened).toHaveBeenCalledTimes(1)
  })

  it('on a computer no app opens by itself: the web and desktop links wait for a click', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    const latch = fake([trust])
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-trust'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    offer(latch)
    for (const tab of screen.getAllByRole('tab')) {
      await user.click(tab)
    }
    expect(opened).not.toHaveBeenCalled()
  })

  it('a decline shows the message while the new pairing is offered', async () => {
    const latch = fake()
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-walletConnect'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    act(() =>
      latch.setState({
        walletConnect: { uri, expiresAt: Date.now() + 240_000, pending: true, error: { kind: 'user_rejected', message: 'Connection declined' } },
      }),
    )
    expect(screen.getByTestId('latch-wc-error').textContent).toBe('Connection declined. Scan the new code to try again.')
    expect(screen.getByTestId('latch-wc-qr-svg')).toBeTruthy()
    expect(screen.queryByTestId('latch-wc-retry')).toBeNull()
  })

  it('a failure without a new pairing shows why, and Try again asks core for one', async () => {
    const latch = fake()
    const { user } = await openConnect(latch)
    await user.click(screen.getByTestId('latch-wallet-walletConnect'))
    await screen.findByTestId('latch-view-ConnectingWalletConnect')
    act(() =>
      latch.setState({
        walletConnect: {
          uri: undefined,
          expiresAt: undefined,
          pending: false,
          error: { kind: 'unknown', message: 'WebSocket connection closed abnormally with code: 3000 (Unauthorized: invalid key)' },
        },
      }),
    )
    const error = screen.getByTestId('latch-wc-error')
    expect(within(error).getByText('Connection failed')).toBeTruthy()
    expect(within(error).getByText(/code: 3000/)).toBeTruthy()
    const retries = latch.retryCalls
    await user.click(screen.getByTestId('latch-wc-retry'))
    expect(latch.retryCalls).toBe(retries + 1)
    expect(screen.queryByTestId('latch-wc-error')).toBeNull()
  })
})

describe('ConnectingWalletConnectBasic', () => {
  it('on a computer: the QR code at once, with All wallets below', async () => {
    const latch = fake()
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'ConnectingWalletConnectBasic' }))
    expect(await screen.findByTestId('latch-view-ConnectingWalletConnectBasic')).toBeTruthy()
    await waitFor(() => expect(latch.pairCalls).toBe(1))
    expect(screen.getByRole('dialog', { name: 'WalletConnect' })).toBeTruthy()
    offer(latch)
    expect(screen.getByTestId('latch-wc-qr-svg').querySelector('path')!.getAttribute('d')).toBe(qrPath(encode(uri, { ecc: 'Q', border: 0 }).data))
    await user.click(screen.getByTestId('latch-all-wallets'))
    expect(latch.getState().view).toBe('AllWallets')
  })

  it('on a phone: the wallets to open, and no pairing nobody could scan', async () => {
    mobile()
    const latch = fake([trust])
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'ConnectingWalletConnectBasic' }))
    await screen.findByTestId('latch-view-ConnectingWalletConnectBasic')
    await act(async () => {}) // the view's effects have run: a pairing would have been asked for by now
    expect(latch.pairCalls).toBe(0)
    expect(screen.queryByTestId('latch-wc-qr')).toBeNull()
    expect(screen.getByTestId('latch-wallet-trust')).toBeTruthy()
    expect(screen.getByTestId('latch-all-wallets')).toBeTruthy()
  })

  it('follows allWallets: HIDE leaves All wallets out', async () => {
    const latch = createFakeLatch({ walletConnect: true, state: { wallets: [walletConnectRow, ...defaultWallets] }, latchOptions: { allWallets: 'HIDE' } })
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'ConnectingWalletConnectBasic' }))
    await screen.findByTestId('latch-view-ConnectingWalletConnectBasic')
    offer(latch)
    expect(screen.getByTestId('latch-wc-qr-svg')).toBeTruthy()
    expect(screen.queryByTestId('latch-all-wallets')).toBeNull()
  })

  it('with the legal checkbox: no pairing and no QR code until the terms are agreed to', async () => {
    const latch = createFakeLatch({
      walletConnect: true,
      state: { wallets: [walletConnectRow, ...defaultWallets] },
      latchOptions: { termsConditionsUrl: 'https://app.test/terms', features: { legalCheckbox: true } },
    })
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'ConnectingWalletConnectBasic' }))
    await screen.findByTestId('latch-view-ConnectingWalletConnectBasic')
    await act(async () => {}) // the view's effects have run: a pairing would have been asked for by now
    expect(latch.pairCalls).toBe(0)
    expect(screen.queryByTestId('latch-wc-qr')).toBeNull()
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the Terms of Service' }))
    expect(latch.pairCalls).toBe(1)
    offer(latch)
    expect(screen.getByTestId('latch-wc-qr-svg')).toBeTruthy()
  })
})
