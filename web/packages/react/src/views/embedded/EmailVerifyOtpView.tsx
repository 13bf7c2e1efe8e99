import { useState } from 'react'
import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { useEmbeddedT } from './strings'
import { OtpInput } from './OtpInput'
import { RecoveryPassword } from './RecoveryPassword'
import { ResendCode } from './ResendCode'
import { useEmbeddedState } from './useEmbeddedState'

/** EmailVerifyOtp: the 6-digit code mailed to the visitor; a full code is sent at once; 'Authenticating...' while the wallet loads. */
export default function EmailVerifyOtpView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const et = useEmbeddedT()
  const state = useEmbeddedState()
  const [code, setCode] = useState('')
  // The code was accepted but the wallet needs its recovery password (a new device in password mode).
  const [askedPassword, setAskedPassword] = useState(false)
  if (!state) return null
  if (state.step === 'recoveryPassword' && !askedPassword) setAskedPassword(true)
  if (state.step === 'otp' && askedPassword) setAskedPassword(false)
  if (state.step === 'recoveryPassword' || (askedPassword && state.step === 'authenticating')) {
    return (
      <div className="latch-view latch-email-otp" data-testid="latch-view-EmailVerifyOtp">
        <RecoveryPassword error={state.step === 'recoveryPassword' ? state.error : undefined} busy={state.step === 'authenticating'} />
      </div>
    )
  }
  const authenticating = state.step === 'authenticating'
  const submit = (otp: string) => {
    void withActions((a) => a.submitOtp(latch, otp)).then(() => {
      if (latch._internal.root.getState().embedded?.error) setCode('')
    })
  }
  return (
    <div className="latch-view latch-email-otp" data-testid="latch-view-EmailVerifyOtp">
      <p className="latch-subtitle">{et('email.codeSentTo', { email: state.email ?? '' })}</p>
      <OtpInput value={code} onChange={setCode} onComplete={submit} disabled={authenticating} />
      {authenticating ? (
        <p className="latch-subtitle" role="status" data-testid="latch-authenticating">
          <span className="latch-spinner" aria-hidden="true" /> {t('siwx.authenticating')}
        </p>
      ) : null}
      {state.error && !authenticating ? (
        <p className="latch-error-text" role="alert" data-testid="latch-otp-error">
          {state.error}
        </p>
      ) : null}
      <p className="latch-subtitle">{et('email.codeExpiry')}</p>
      <ResendCode resendAt={state.resendAt} />
    </div>
  )
}
