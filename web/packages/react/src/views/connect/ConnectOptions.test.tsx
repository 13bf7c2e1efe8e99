// The Connect view's options: allWallets, collapseWallets / emailShowWallets, the legal links and checkbox.
import { describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createLatch, type LatchOptions } from '@latchkit/core'
import { mainnet } from 'viem/chains'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

async function openConnect(latchOptions: Partial<LatchOptions>, state = {}) {
  const latch = createFakeLatch({ latchOptions, connect: 'pending', state })
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-connect-button'))
  return result
}

const mobileUA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'

describe('Connect view options', () => {
  it('allWallets SHOW (default) shows the All wallets row, HIDE and features.allWallets false hide it', async () => {
    const shown = await openConnect({})
    expect(screen.getByTestId('latch-all-wallets')).toBeTruthy()
    shown.unmount()
    const hidden = await openConnect({ allWallets: 'HIDE' })
    expect(screen.queryByTestId('latch-all-wallets')).toBeNull()
    hidden.unmount()
    await openConnect({ features: { allWallets: false } })
    expect(screen.queryByTestId('latch-all-wallets')).toBeNull()
  })

  it('allWallets ONLY_MOBILE shows the row on a phone only', async () => {
    const desktop = await openConnect({ allWallets: 'ONLY_MOBILE' })
    expect(screen.queryByTestId('latch-all-wallets')).toBeNull()
    desktop.unmount()
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(mobileUA)
    await openConnect({ allWallets: 'ONLY_MOBILE' })
    expect(screen.getByTestId('latch-all-wallets')).toBeTruthy()
    vi.restoreAllMocks()
  })

  it.each([
    ['collapseWallets', { collapseWallets: true }],
    ['emailShowWallets false', { emailShowWallets: false }],
  ] as const)('%s folds the wallets into one row under e-mail login; the row unfolds them', async (_, features) => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [mainnet], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2', features })
    const user = userEvent.setup()
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <ConnectButton />
      </LatchProvider>,
    )
    act(() => void latch.open({ view: 'Connect' }))
    await screen.findByTestId('latch-email-input')
    const row = screen.getByTestId('latch-continue-wallet')
    expect(screen.queryByRole('list', { name: 'Connect Wallet' })).toBeNull()
    await user.click(row)
    expect(screen.getByRole('list', { name: 'Connect Wallet' })).toBeTruthy()
    latch.destroy()
  })

  it('collapseWallets changes nothing when the wallets are the only section', async () => {
    await openConnect({ features: { collapseWallets: true } })
    expect(screen.getByTestId('latch-wallet-metamask')).toBeTruthy()
    expect(screen.queryByTestId('latch-continue-wallet')).toBeNull()
  })

  it('shows the legal links without a checkbox; connecting works', async () => {
    const { user, latch } = await openConnect({ termsConditionsUrl: 'https://app.test/terms', privacyPolicyUrl: 'https://app.test/privacy' })
    const legal = await screen.findByTestId('latch-legal')
    expect(legal.textContent).toBe('By connecting a wallet, you agree to the Terms of Service and Privacy Policy')
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('https://app.test/terms')
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('https://app.test/privacy')
    expect(screen.queryByRole('checkbox')).toBeNull()
    const spy = vi.spyOn(latch, 'connectWallet')
    await user.click(screen.getByTestId('latch-wallet-metamask'))
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('with legalCheckbox, wallet rows are aria-disabled and do nothing until the checkbox is ticked', async () => {
    const { user, latch } = await openConnect({ termsConditionsUrl: 'https://app.test/terms', features: { legalCheckbox: true } })
    const box = await screen.findByRole('checkbox', { name: 'I agree to the Terms of Service' })
    const row = screen.getByTestId('latch-wallet-metamask')
    expect(row.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByTestId('latch-all-wallets').getAttribute('aria-disabled')).toBe('true')
    const spy = vi.spyOn(latch, 'connectWallet')
    await user.click(row)
    await user.click(screen.getByTestId('latch-all-wallets'))
    expect(spy).not.toHaveBeenCalled()
    expect(screen.getByTestId('latch-view-Connect')).toBeTruthy()
    // Keyboard: focus the checkbox and tick it with Space.
    box.focus()
    await user.keyboard(' ')
    expect((box as HTMLInputElement).checked).toBe(true)
    expect(row.getAttribute('aria-disabled')).toBeNull()
    await user.click(row)
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('the agreement holds across views: All Wallets after ticking, and back in Connect', async () => {
    const { user, latch } = await openConnect({ termsConditionsUrl: 'https://app.test/terms', features: { legalCheckbox: true } })
    await user.click(await screen.findByRole('checkbox'))
    await user.click(screen.getByTestId('latch-all-wallets'))
    await screen.findByTestId('latch-view-AllWallets', {}, { timeout: 5000 })
    expect((await screen.findByRole('checkbox')).getAttribute('aria-labelledby')).toBeTruthy()
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(true)
    await user.click(screen.getByTestId('latch-modal-back'))
    await screen.findByTestId('latch-view-Connect')
    expect((await screen.findByRole('checkbox') as HTMLInputElement).checked).toBe(true)
    expect(screen.getByTestId('latch-wallet-metamask').getAttribute('aria-disabled')).toBeNull()
    expect(latch.getState().view).toBe('Connect')
  })

  it('All Wallets reached without agreeing (WhatIsAWallet, open()) shows the checkbox and connects nothing until it is ticked', async () => {
    const { user, latch } = await openConnect({ termsConditionsUrl: 'https://app.test/terms', features: { legalCheckbox: true } })
    const spy = vi.spyOn(latch, 'connectWallet')
    act(() => latch.push('AllWallets'))
    const view = await screen.findByTestId('latch-view-AllWallets', {}, { timeout: 5000 })
    const row = (await screen.findAllByRole('button', { name: /Wallet/ })).find((b) => b.closest('ul') && view.contains(b))!
    expect(row.getAttribute('aria-disabled')).toBe('true')
    await user.click(row)
    expect(spy).not.toHaveBeenCalled()
    await user.click(screen.getByRole('checkbox'))
    await user.click(row)
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('legalCheckbox without a legal URL asks nothing', async () => {
    await openConnect({ features: { legalCheckbox: true } })
    expect(screen.queryByRole('checkbox')).toBeNull()
    expect(screen.getByTestId('latch-wallet-metamask').getAttribute('aria-disabled')).toBeNull()
  })

  it('"Haven\'t got a wallet?" opens WhatIsAWallet', async () => {
    const { user } = await openConnect({})
    await user.click(screen.getByTestId('latch-what-is-a-wallet'))
    expect(await screen.findByTestId('latch-view-WhatIsAWallet', {}, { timeout: 5000 })).toBeTruthy()
  })
})
