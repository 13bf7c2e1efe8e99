import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react'
import { useEmbeddedT } from './strings'

/** The code's length: six digits. */
export const OTP_LENGTH = 6

const boxStyle = { width: '2.5em', textAlign: 'center', fontSize: '1.25em', padding: '0.5em 0' } as const

/**
 * Six one-digit boxes: typing moves to the next, Backspace to the previous,
 * and a pasted code fills them all. onComplete runs with the six digits.
 */
export function OtpInput({ value, onChange, onComplete, disabled }: { value: string; onChange: (v: string) => void; onComplete: (code: string) => void; disabled?: boolean }) {
  const et = useEmbeddedT()
  const boxes = useRef<(HTMLInputElement | null)[]>([])
  const set = (next: string) => {
    const digits = next.replace(/\D/g, '').slice(0, OTP_LENGTH)
    onChange(digits)
    boxes.current[Math.min(digits.length, OTP_LENGTH - 1)]?.focus()
    if (digits.length === OTP_LENGTH) onComplete(digits)
  }
  const onInput = (i: number, typed: string) => {
    const digit = typed.replace(/\D/g, '').slice(-1)
    if (!digit) return
    set(value.slice(0, i) + digit + value.slice(i + 1))
  }
  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Backspace') return
    e.preventDefault()
    const at = value[i] ? i : i - 1
    if (at < 0) return
    onChange(value.slice(0, at))
    boxes.current[at]?.focus()
  }
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault()
    set(e.clipboardData.getData('text'))
  }
  return (
    <div className="latch-input-row latch-otp" style={{ justifyContent: 'center', gap: '0.5em' }}>
      {Array.from({ length: OTP_LENGTH }, (_, i) => (
        <input
          key={i}
          ref={(el) => {
            boxes.current[i] = el
          }}
          className="latch-input"
          style={boxStyle}
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          maxLength={OTP_LENGTH}
          aria-label={et('email.codeLabel', { n: i + 1 })}
          value={value[i] ?? ''}
          disabled={disabled}
          autoFocus={i === 0}
          onChange={(e) => onInput(i, e.target.value)}
          onKeyDown={(e) => onKeyDown(i, e)}
          onPaste={onPaste}
          data-testid={`latch-otp-input-${i}`}
        />
      ))}
    </div>
  )
}
