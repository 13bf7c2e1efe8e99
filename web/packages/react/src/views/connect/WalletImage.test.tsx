import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { WalletImage } from './WalletImage'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('WalletImage', () => {
  it('keeps an image that loaded within 2 s', () => {
    const { container } = render(<WalletImage src="https://img.test/a.png" name="Alpha" />)
    expect(screen.getByTestId('latch-wallet-placeholder').textContent).toBe('A')
    fireEvent.load(container.querySelector('img')!)
    act(() => vi.advanceTimersByTime(5000))
    expect(container.querySelector('img')).not.toBeNull()
    expect(screen.queryByTestId('latch-wallet-placeholder')).toBeNull()
  })

  it('shows the placeholder when the image has not loaded after 2 s', () => {
    const { container } = render(<WalletImage src="https://img.test/b.png" name="beta" />)
    act(() => vi.advanceTimersByTime(1999))
    expect(container.querySelector('img')).not.toBeNull()
    act(() => vi.advanceTimersByTime(1))
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByTestId('latch-wallet-placeholder').textContent).toBe('B')
  })

  it('shows the placeholder on error or without a source', () => {
    const { container, rerender } = render(<WalletImage src="https://img.test/c.png" name="Gamma" />)
    fireEvent.error(container.querySelector('img')!)
    expect(container.querySelector('img')).toBeNull()
    rerender(<WalletImage src={undefined} name="Delta" />)
    expect(screen.getByTestId('latch-wallet-placeholder').textContent).toBe('D')
  })
})
