import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { OtpInput } from './OtpInput'
import { ResendCode } from './ResendCode'

function Harness({ onComplete }: { onComplete: (code: string) => void }) {
  const [value, setValue] = useState('')
  return <OtpInput value={value} onChange={setValue} onComplete={onComplete} />
}

const boxes = () => Array.from({ length: 6 }, (_, i) => screen.getByTestId(`latch-otp-input-${i}`) as HTMLInputElement)

describe('OtpInput', () => {
  it('has six labelled boxes; typing moves to the next box, and the sixth digit completes the code', async () => {
    const onComplete = vi.fn()
    const { user } = renderWithLatch(<Harness onComplete={onComplete} />, { latch: createFakeLatch() })
    expect(boxes().map((b) => b.getAttribute('aria-label'))).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Digit ${n} of the code`))
    await user.click(boxes()[0]!)
    await user.keyboard('12a3')
    expect(boxes().map((b) => b.value).join('')).toBe('123')
    expect(document.activeElement).toBe(boxes()[3])
    await user.keyboard('{Backspace}')
    expect(boxes().map((b) => b.value).join('')).toBe('12')
    await user.keyboard('3456')
    expect(onComplete).toHaveBeenCalledWith('123456')
  })

  it('a pasted code fills every box and completes', () => {
    const onComplete = vi.fn()
    renderWithLatch(<Harness onComplete={onComplete} />, { latch: createFakeLatch() })
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => ' 654 321 ' } })
    expect(boxes().map((b) => b.value)).toEqual(['6', '5', '4', '3', '2', '1'])
    expect(onComplete).toHaveBeenCalledWith('654321')
  })
})

describe('ResendCode', () => {
  it("says 'Please try again after {n} seconds' during the cooldown, then offers a new code", () => {
    const { unmount } = renderWithLatch(<ResendCode resendAt={Date.now() + 30_000} />, { latch: createFakeLatch() })
    expect(screen.getByTestId('latch-otp-resend-cooldown').textContent).toMatch(/^Please try again after (30|29) seconds$/)
    expect(screen.queryByTestId('latch-otp-resend')).toBeNull()
    unmount()
    renderWithLatch(<ResendCode resendAt={Date.now() - 1} />, { latch: createFakeLatch() })
    expect(screen.getByTestId('latch-otp-resend').textContent).toBe('Resend code')
  })
})
