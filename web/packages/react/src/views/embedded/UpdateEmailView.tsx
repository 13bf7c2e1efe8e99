import { useState, type FormEvent } from 'react'
import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useEmbeddedT } from './strings'
import { OtpInput } from './OtpInput'
import { useEmbeddedState } from './useEmbeddedState'

/**
 * UpdateEmail: the new address, then the code mailed to the current address,
 * then the one mailed to the new address (spec §4); after the second the new
 * address is the login e-mail.
 */
export default function UpdateEmailView() {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const state = useEmbeddedState()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  if (!state) return null
  const { update } = state
  const submitEmail = (e: FormEvent) => {
    e.preventDefault()
    void withActions((a) => a.updateEmail(latch, email))
  }
  const submitCode = (otp: string) => {
    void withActions((a) => a.submitUpdateEmailOtp(latch, otp)).then(() => setCode(''))
  }
  return (
    <div className="latch-view latch-update-email" data-testid="latch-view-UpdateEmail">
      {update.step === 'idle' || update.step === 'sending' ? (
        <form onSubmit={submitEmail} noValidate>
          <div className="latch-input-row">
            <input
              className="latch-input"
              type="email"
              dir="ltr"
              autoComplete="email"
              placeholder={et('email.newAddress')}
              aria-label={et('email.newAddress')}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={update.step === 'sending'}
              data-testid="latch-update-email-input"
            />
            <button type="submit" className="latch-primary-button" disabled={update.step === 'sending' || email.trim() === ''} data-testid="latch-update-email-submit">
              {et('email.continue')}
            </button>
          </div>
        </form>
      ) : null}
      {update.step === 'primaryOtp' || update.step === 'secondaryOtp' ? (
        <>
          <p className="latch-subtitle" data-testid={`latch-update-email-${update.step}`}>
            {update.step === 'primaryOtp' ? et('email.updateCodeCurrent', { email: state.email ?? '' }) : et('email.updateCodeNew', { email: update.newEmail ?? '' })}
          </p>
          <OtpInput key={update.step} value={code} onChange={setCode} onComplete={submitCode} />
        </>
      ) : null}
      {update.step === 'done' ? (
        <p className="latch-subtitle" role="status" data-testid="latch-update-email-done">
          {et('email.updated', { email: update.newEmail ?? '' })}
        </p>
      ) : null}
      {update.error ? (
        <p className="latch-error-text" role="alert" data-testid="latch-update-email-error">
          {update.error}
        </p>
      ) : null}
    </div>
  )
}
