import { withActions } from './withActions'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { useEmbeddedT } from './strings'
import { useEmbeddedState } from './useEmbeddedState'

/**
 * EmailVerifyDevice: a new device waits until the visitor opens the approval
 * link mailed to them; the modal then moves to EmailVerifyOtp by itself.
 */
export default function EmailVerifyDeviceView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const et = useEmbeddedT()
  const state = useEmbeddedState()
  if (!state) return null
  return (
    <div className="latch-view latch-email-device" data-testid="latch-view-EmailVerifyDevice">
      <p className="latch-field-label">{et('email.deviceTitle')}</p>
      <p className="latch-subtitle">{et('email.deviceApprove', { email: state.email ?? '' })}</p>
      <p className="latch-subtitle">{et('email.deviceExpiry')}</p>
      {state.error ? (
        <>
          <p className="latch-error-text" role="alert" data-testid="latch-device-error">
            {state.error}
          </p>
          <button type="button" className="latch-secondary-button" onClick={() => void withActions((a) => a.waitForDeviceApproval(latch))} data-testid="latch-device-retry">
            {t('button.tryAgain')}
          </button>
        </>
      ) : (
        <span className="latch-spinner latch-list-spinner" aria-hidden="true" data-testid="latch-device-waiting" />
      )}
    </div>
  )
}
