import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { debounce } from './timers'

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('calls once with the latest arguments after the quiet period', () => {
    const fn = vi.fn()
    const d = debounce(fn, 300)
    d('a')
    vi.advanceTimersByTime(200)
    d('ab')
    vi.advanceTimersByTime(299)
    expect(fn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledOnce()
    expect(fn).toHaveBeenCalledWith('ab')
  })

  it('cancel drops the pending call; flush runs it now', () => {
    const fn = vi.fn()
    const d = debounce(fn, 300)
    d(1)
    d.cancel()
    vi.advanceTimersByTime(500)
    expect(fn).not.toHaveBeenCalled()
    d(2)
    d.flush()
    expect(fn).toHaveBeenCalledWith(2)
  })
})
