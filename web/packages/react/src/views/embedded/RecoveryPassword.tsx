import { useState, type FormEvent } from 'react'
import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useEmbeddedT } from './strings'

/**
 * The recovery-password prompt of EmailVerifyOtp: a new device of a wallet
 * whose recovery share is under the visitor's password ('Recovery password
 * required'). The password goes to the frame, which rebuilds the key; a wrong
 * one shows the frame's message under the field.
 */
export function RecoveryPassword({ error, busy }: { readonly error: string | undefined; readonly busy: boolean }) {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const [password, setPassword] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!busy) void withActions((a) => a.submitRecoveryPassword(latch, password))
  }
  return (
    <form className="latch-email-login" onSubmit={submit} noValidate data-testid="latch-recovery-password">
      <p className="latch-field-label">{et('email.recoveryTitle')}</p>
      <p className="latch-subtitle">{et('email.recoveryHint')}</p>
      <div className="latch-input-row">
        <input
          className="latch-input"
          type="password"
          autoComplete="current-password"
          aria-label={et('email.recoveryLabel')}
          aria-invalid={error ? true : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={busy}
          data-testid="latch-recovery-password-input"
        />
        <button type="submit" className="latch-primary-button" disabled={busy || password === ''} data-testid="latch-recovery-password-submit">
          {busy ? <span className="latch-spinner" aria-hidden="true" /> : et('email.continue')}
        </button>
      </div>
      {error && !busy ? (
        <p className="latch-error-text" role="alert" data-testid="latch-recovery-password-error">
          {error}
        </p>
      ) : null}
    </form>
  )
}
