import { useEffect, useState } from 'react'
import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useEmbeddedT } from './strings'

/** The resend row: for 30 s after a code it says 'Please try again after {count} seconds' (spec §5), then offers a new code. */
export function ResendCode({ resendAt }: { resendAt: number }) {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const [now, setNow] = useState(() => Date.now())
  const left = Math.ceil((resendAt - now) / 1000)
  useEffect(() => {
    if (left <= 0) return
    const timer = setTimeout(() => setNow(Date.now()), 1000)
    return () => clearTimeout(timer)
  }, [left, now])
  return (
    <p className="latch-subtitle">
      {et('email.didNotGetIt')}{' '}
      {left > 0 ? (
        <span data-testid="latch-otp-resend-cooldown">{et('email.cooldown', { count: left })}</span>
      ) : (
        <button type="button" className="latch-secondary-button" onClick={() => void withActions((a) => a.resendCode(latch))} data-testid="latch-otp-resend">
          {et('email.resend')}
        </button>
      )}
    </p>
  )
}
