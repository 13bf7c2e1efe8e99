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

describe('WalletImage sources', () => {
  it("keeps a loaded image, and starts over for a new source without reusing another source's outcome", () => {
    const { container, rerender } = render(<WalletImage src="https://img.test/e.png" name="Epsilon" />)
    fireEvent.load(container.querySelector('img')!)
    act(() => vi.advanceTimersByTime(5000))
    expect(container.querySelector('[data-status]')?.getAttribute('data-status')).toBe('loaded')
    rerender(<WalletImage src="https://img.test/f.png" name="Zeta" />)
    expect(container.querySelector('[data-status]')?.getAttribute('data-status')).toBe('loading')
    expect(screen.getByTestId('latch-wallet-placeholder').textContent).toBe('Z')
    act(() => vi.advanceTimersByTime(2000))
    expect(container.querySelector('img')).toBeNull()
    // Back to the first source: its outcome is not reused from another image's.
    rerender(<WalletImage src="https://img.test/e.png" name="Epsilon" />)
    expect(container.querySelector('[data-status]')?.getAttribute('data-status')).toBe('loading')
  })
})
