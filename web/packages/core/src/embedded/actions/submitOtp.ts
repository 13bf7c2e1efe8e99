import type { Latch } from '../../latch-types'
import { requireEmbedded, shownError } from '../required'
import { finishEmailLogin } from './finishEmailLogin'

/** Shown when the code is not six digits (nothing is sent). */
export const INVALID_OTP_MESSAGE = 'Enter the 6-digit code'

/**
 * submitOtp sends the mailed 6-digit code; on success the wallet connects
 * ('Authenticating...' while the frame loads it). A wrong code stays on
 * EmailVerifyOtp with latchd's message as the slice's `error`.
 */
export async function submitOtp(latch: Latch, otp: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  const code = otp.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(code)) {
    wallet.store.setState({ error: INVALID_OTP_MESSAGE })
    return
  }
  wallet.store.setState({ step: 'authenticating', error: undefined })
  try {
    await (await wallet.frame()).connectOtp(code)
  } catch (error) {
    wallet.store.setState({ step: 'otp', error: shownError(latch, error) })
    return
  }
  await finishEmailLogin(latch)
}
