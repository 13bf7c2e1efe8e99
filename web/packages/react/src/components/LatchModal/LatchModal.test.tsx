import { describe, expect, it } from 'vitest'
import { act, screen } from '@testing-library/react'
import { ConnectButton } from '../ConnectButton/ConnectButton'
import { createConnectedFakeLatch, createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import type { LatchState } from '@latchkit/core'

async function openModal() {
  const result = renderWithLatch(<ConnectButton />)
  await result.user.click(screen.getByTestId('latch-connect-button'))
  return result
}

describe('LatchModal', () => {
  it('is a labelled, modal dialog under a [data-latch] root portalled to body', async () => {
    await openModal()
    const dialog = screen.getByRole('dialog')
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    const title = document.getElementById(dialog.getAttribute('aria-labelledby')!)
    expect(title?.textContent).toBe('Connect Wallet')
    const root = dialog.closest('[data-latch]') as HTMLElement
    expect(root.parentElement).toBe(document.body)
    expect(root.dataset.theme).toBe('light')
  })

  it('renders nothing while closed', () => {
    renderWithLatch(<ConnectButton />)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('back button appears with history and goes back; close button closes', async () => {
    const { user, latch } = await openModal()
    expect(screen.queryByTestId('latch-modal-back')).toBeNull()
    await user.click(screen.getByTestId('latch-all-wallets'))
    expect(await screen.findByTestId('latch-view-AllWallets')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByTestId('latch-view-Connect')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(latch.getState().open).toBe(false)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Escape closes', async () => {
    const { user, latch } = await openModal()
    await user.keyboard('{Escape}')
    expect(latch.getState().open).toBe(false)
  })

  it('Escape, backdrop and close button do nothing when state.canClose is false', async () => {
    const latch = createFakeLatch({ state: { canClose: false } as Partial<LatchState> })
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    await user.click(screen.getByTestId('latch-connect-button'))
    await user.keyboard('{Escape}')
    await user.click(screen.getByTestId('latch-modal-backdrop'))
    expect(latch.getState().open).toBe(true)
    expect(screen.queryByTestId('latch-modal-close')).toBeNull()
  })

  it('backdrop click closes, a click inside the dialog does not', async () => {
    const { user, latch } = await openModal()
    await user.click(screen.getByRole('dialog'))
    expect(latch.getState().open).toBe(true)
    await user.click(screen.getByTestId('latch-modal-backdrop'))
    expect(latch.getState().open).toBe(false)
  })

  it('traps focus: Tab and Shift+Tab cycle inside the dialog', async () => {
    const { user } = await openModal()
    const dialog = screen.getByRole('dialog')
    expect(document.activeElement).toBe(dialog)
    const focusables = Array.from(dialog.querySelectorAll<HTMLElement>('button'))
    const first = focusables[0]!
    const last = focusables[focusables.length - 1]!
    await user.tab()
    expect(document.activeElement).toBe(first)
    await user.tab({ shift: true })
    expect(document.activeElement).toBe(last)
    await user.tab()
    expect(document.activeElement).toBe(first)
    for (let i = 0; i < focusables.length + 2; i++) {
      await user.tab()
      expect(dialog.contains(document.activeElement)).toBe(true)
    }
  })

  it('restores focus to the opener on close', async () => {
    const { user } = await openModal()
    const opener = screen.getByTestId('latch-connect-button')
    expect(document.activeElement).not.toBe(opener)
    await user.keyboard('{Escape}')
    expect(document.activeElement).toBe(opener)
  })

  it('dark theme sets data-theme="dark" and the theme variables inline', async () => {
    const { latch } = await openModal()
    act(() => {
      latch.setThemeMode('dark')
      latch.setThemeVariables({ accent: '#ff0000', '--latch-z-index': 2000 })
    })
    const root = screen.getByRole('dialog').closest('[data-latch]') as HTMLElement
    expect(root.dataset.theme).toBe('dark')
    expect(root.style.getPropertyValue('--latch-accent')).toBe('#ff0000')
    expect(root.style.getPropertyValue('--latch-z-index')).toBe('2000')
    // the buttons outside the modal follow the theme too
    const inline = screen.getByTestId('latch-connect-button').closest('[data-latch]') as HTMLElement
    expect(inline.dataset.theme).toBe('dark')
  })

  it('renders the alert banner with its variant', async () => {
    const { latch } = await openModal()
    act(() => latch.setState({ alert: { code: 'SWITCH_NETWORK_NOT_FOUND', variant: 'warning', message: 'Network Not Found' } }))
    const alert = screen.getByTestId('latch-alert')
    expect(alert.getAttribute('role')).toBe('alert')
    expect(alert.dataset.variant).toBe('warning')
    expect(alert.textContent).toBe('Network Not Found')
  })

  it('renders toasts (success as status, error as alert) and hides closed ones', async () => {
    const { latch } = await openModal()
    act(() => latch.showToast('Address copied', 'success'))
    expect(screen.getByRole('status').textContent).toBe('Address copied')
    act(() => latch.showToast('Signature declined', 'error'))
    expect(screen.getByTestId('latch-toast').getAttribute('role')).toBe('alert')
    expect(screen.getByTestId('latch-toast').dataset.variant).toBe('error')
    act(() => latch.setState({ toast: { message: 'x', variant: 'success', open: false } }))
    expect(screen.queryByTestId('latch-toast')).toBeNull()
  })

  it('marks the dialog for the shake animation while state.shake is set', async () => {
    const { latch } = await openModal()
    expect(screen.getByRole('dialog').hasAttribute('data-shake')).toBe(false)
    act(() => latch.setState({ shake: true }))
    expect(screen.getByRole('dialog').hasAttribute('data-shake')).toBe(true)
  })

  it('shows a not-available panel for views not built yet (once the lazy views table says it has none)', async () => {
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    // A view the lazy views table has no entry for (every AppKit view Latch routes is built now).
    act(() => void latch.open({ view: 'NoSuchView' as never }))
    expect((await screen.findByTestId('latch-view-NoSuchView', {}, { timeout: 5000 })).textContent).toBe('This view is not available yet.')
    expect(screen.getByRole('dialog', { name: 'No Such View' })).toBeTruthy()
  })

  it.each([
    ['WhatIsAWallet', 'What is a wallet?', /holds the keys/],
    ['WhatIsANetwork', 'What is a network?', /public record of balances/],
  ] as const)('%s explains in its own chunk', async (view, title, text) => {
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view }))
    expect((await screen.findByTestId(`latch-view-${view}`, {}, { timeout: 5000 })).textContent).toMatch(text)
    expect(screen.getByRole('dialog', { name: title })).toBeTruthy()
  })
})
