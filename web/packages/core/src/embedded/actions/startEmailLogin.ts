import type { Latch } from '../../latch-types'
import { EMAIL_LOGIN_COOLDOWN_MS } from '../timings'
import { INVALID_EMAIL_MESSAGE, requireEmbedded, shownError, shownMessage, validEmail } from '../required'
import { finishEmailLogin } from './finishEmailLogin'
import { waitForDeviceApproval } from './waitForDeviceApproval'

/**
 * startEmailLogin asks latchd (through the frame) to mail a code to email and
 * moves to what the frame answers (spec §4): EmailVerifyOtp for a known
 * device, EmailVerifyDevice (and waits for the approval link) for a new one,
 * or straight to the wallet when the frame still has a session. A bad address
 * gets the spec §5 message and nothing is sent. Never throws: a failure is
 * the slice's `error`.
 */
export async function startEmailLogin(latch: Latch, value: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { router } = latch._internal
  const email = validEmail(value)
  if (!email) {
    wallet.store.setState({ error: shownMessage(latch, INVALID_EMAIL_MESSAGE) })
    return
  }
  wallet.store.setState({ step: 'sending', email, error: undefined })
  try {
    const { action } = await (await wallet.frame()).connectEmail(email, latch.getState().locale)
    wallet.store.setState({ resendAt: Date.now() + EMAIL_LOGIN_COOLDOWN_MS })
    if (action === 'CONNECT') return finishEmailLogin(latch)
    if (action === 'VERIFY_OTP') {
      wallet.store.setState({ step: 'otp' })
      router.push('EmailVerifyOtp')
      return
    }
    wallet.store.setState({ step: 'device' })
    router.push('EmailVerifyDevice')
    await waitForDeviceApproval(latch)
  } catch (error) {
    wallet.store.setState({ step: 'idle', error: shownError(latch, error) })
  }
}
