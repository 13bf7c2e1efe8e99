import { useState, type FormEvent } from 'react'
import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { useEmbeddedT } from './strings'
import { useEmbeddedState } from './useEmbeddedState'

/**
 * The e-mail field of the Connect view (a chunk of its own, loaded only when
 * the options allow e-mail login): a valid address gets a code (or a device
 * approval link) by mail; the answer moves the modal to the next view.
 */
export default function EmailLogin() {
  const latch = useLatchInstance()
  const t = useModalT()
  const et = useEmbeddedT()
  const state = useEmbeddedState()
  const [email, setEmail] = useState(state?.email ?? '')
  if (!state) return null
  const sending = state.step === 'sending'
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!sending) void withActions((a) => a.startEmailLogin(latch, email))
  }
  const error = state.step === 'idle' || state.step === 'sending' ? state.error : undefined
  return (
    <form className="latch-email-login" onSubmit={submit} noValidate data-testid="latch-email-login">
      <div className="latch-input-row">
        <input
          className="latch-input"
          type="email"
          dir="ltr"
          inputMode="email"
          autoComplete="email"
          placeholder={t('connect.emailPlaceholder')}
          aria-label={t('connect.email')}
          aria-invalid={error ? true : undefined}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={sending}
          data-testid="latch-email-input"
        />
        <button type="submit" className="latch-primary-button" disabled={sending || email.trim() === ''} data-testid="latch-email-submit">
          {sending ? <span className="latch-spinner" aria-hidden="true" /> : et('email.continue')}
        </button>
      </div>
      {error ? (
        <p className="latch-error-text" role="alert" data-testid="latch-email-error">
          {error}
        </p>
      ) : null}
    </form>
  )
}
