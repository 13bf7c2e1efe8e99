import type { Latch } from '../../latch-types'
import { errorMessage, requireEmbedded } from '../required'

/**
 * waitForDeviceApproval waits (through the frame) until the visitor opened
 * the approval link mailed for this new device; latchd then mails the code,
 * and the modal moves on to EmailVerifyOtp. A failure (the link expired, the
 * frame timed out) stays on EmailVerifyDevice as the slice's `error`.
 */
export async function waitForDeviceApproval(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  wallet.store.setState({ step: 'device', error: undefined })
  try {
    await (await wallet.frame()).request('CONNECT_DEVICE')
  } catch (error) {
    if (wallet.store.getState().step === 'device') wallet.store.setState({ error: errorMessage(error) })
    return
  }
  if (wallet.store.getState().step !== 'device') return // the visitor left meanwhile
  wallet.store.setState({ step: 'otp' })
  latch._internal.router.replace('EmailVerifyOtp')
}
