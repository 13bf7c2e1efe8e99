import type { Latch } from '../../latch-types'
import { INVALID_EMAIL_MESSAGE, requireEmbedded, shownError, shownMessage, validEmail } from '../required'

/**
 * updateEmail starts an e-mail change of the signed-in wallet (spec §4): a
 * code goes to the current address first (VERIFY_PRIMARY_OTP), then one to
 * the new address (VERIFY_SECONDARY_OTP). The step is the slice's `update`.
 */
export async function updateEmail(latch: Latch, value: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  const newEmail = validEmail(value)
  if (!newEmail) {
    wallet.store.setState((s) => ({ update: { ...s.update, error: shownMessage(latch, INVALID_EMAIL_MESSAGE) } }))
    return
  }
  wallet.store.setState({ update: { step: 'sending', newEmail, error: undefined } })
  try {
    const { action } = await (await wallet.frame()).request('UPDATE_EMAIL', { email: newEmail, locale: latch.getState().locale })
    wallet.store.setState({ update: { step: action === 'VERIFY_PRIMARY_OTP' ? 'primaryOtp' : 'secondaryOtp', newEmail, error: undefined } })
  } catch (error) {
    wallet.store.setState({ update: { step: 'idle', newEmail, error: shownError(latch, error) } })
  }
}

/**
 * submitUpdateEmailOtp sends the code of the current step: the current
 * address's, then the new one's; after the second the new address is the
 * login e-mail (spec §4).
 */
export async function submitUpdateEmailOtp(latch: Latch, otp: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { update } = wallet.store.getState()
  const code = otp.replace(/\s+/g, '')
  try {
    if (update.step === 'primaryOtp') {
      await (await wallet.frame()).request('UPDATE_EMAIL_PRIMARY_OTP', { otp: code, locale: latch.getState().locale })
      wallet.store.setState({ update: { ...update, step: 'secondaryOtp', error: undefined } })
    } else if (update.step === 'secondaryOtp') {
      const { newEmail } = await (await wallet.frame()).request('UPDATE_EMAIL_SECONDARY_OTP', { otp: code })
      wallet.rememberEmail(newEmail)
      wallet.store.setState((s) => ({ email: newEmail, user: s.user && { ...s.user, email: newEmail }, update: { step: 'done', newEmail, error: undefined } }))
    }
  } catch (error) {
    wallet.store.setState({ update: { ...update, error: shownError(latch, error) } })
  }
}
