import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToastController, TOAST_AUTO_CLOSE_MS, TOAST_REPLACE_DELAY_MS } from './toasts'

describe('toast controller', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows a toast at once when none is open, and auto-closes it', () => {
    const toasts = createToastController()
    toasts.showSuccess('Address copied')
    expect(toasts.store.getState()).toMatchObject({ open: true, message: 'Address copied', variant: 'success' })
    vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS)
    expect(toasts.store.getState().open).toBe(false)
  })

  it('closes the open toast, then shows the new one after 150 ms', () => {
    const toasts = createToastController()
    toasts.showLoading('Authenticating...')
    toasts.showError('Signature declined')
    expect(toasts.store.getState()).toMatchObject({ open: false, message: 'Authenticating...' })
    vi.advanceTimersByTime(TOAST_REPLACE_DELAY_MS - 1)
    expect(toasts.store.getState().open).toBe(false)
    vi.advanceTimersByTime(1)
    expect(toasts.store.getState()).toMatchObject({ open: true, message: 'Signature declined', variant: 'error' })
  })

  it('keeps loading toasts until replaced, and honours autoClose: false', () => {
    const toasts = createToastController()
    toasts.showLoading('Authenticating...')
    vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS * 4)
    expect(toasts.store.getState().open).toBe(true)
    toasts.hide()
    toasts.showError('Failed to fetch transactions', { autoClose: false })
    vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS * 4)
    expect(toasts.store.getState()).toMatchObject({ open: true, autoClose: false })
  })

  it('hide drops a replacement that is waiting', () => {
    const toasts = createToastController()
    toasts.showSuccess('one')
    toasts.showSuccess('two')
    toasts.hide()
    vi.advanceTimersByTime(TOAST_REPLACE_DELAY_MS * 2)
    expect(toasts.store.getState()).toMatchObject({ open: false, message: 'one' })
  })
})
