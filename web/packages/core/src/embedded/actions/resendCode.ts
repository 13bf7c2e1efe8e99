import type { Latch } from '../../latch-types'
import { EMAIL_LOGIN_COOLDOWN_MS } from '../timings'
import { requireEmbedded, shownError } from '../required'

/**
 * resendCode asks for a new code to the same address. Within 30 s of the
 * last one the frame client refuses with 'Please try again after {n}
 * seconds' (spec §5), shown as the slice's `error`.
 */
export async function resendCode(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { email } = wallet.store.getState()
  if (!email) return
  wallet.store.setState({ error: undefined })
  try {
    await (await wallet.frame()).connectEmail(email, latch.getState().locale)
    wallet.store.setState({ resendAt: Date.now() + EMAIL_LOGIN_COOLDOWN_MS })
  } catch (error) {
    wallet.store.setState({ error: shownError(latch, error) })
  }
}
