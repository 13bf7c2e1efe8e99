import type { Latch } from '../../latch-types'
import { requireEmbedded, shownError } from '../required'

/**
 * waitForDeviceApproval waits (through the frame) until the visitor opened
 * the approval link mailed for this new device; latchd then mails the code,
 * and the modal moves on to EmailVerifyOtp. The wait is not under the 30 s
 * connect timeout: it lasts until the link's 10-minute expiry, or until the
 * visitor leaves EmailVerifyDevice (going back or closing the modal), which
 * ends it so a late approval no longer moves the modal. An expired link stays
 * on EmailVerifyDevice as the slice's `error`.
 */
export async function waitForDeviceApproval(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  const left = new AbortController()
  const leave = () => {
    left.abort()
    if (wallet.store.getState().step === 'device') wallet.store.setState({ step: 'idle', error: undefined })
  }
  const unsubscribe = latch.subscribe((state) => {
    if (state.view !== 'EmailVerifyDevice') leave()
  })
  wallet.store.setState({ step: 'device', error: undefined })
  try {
    await (await wallet.frame()).waitForDeviceApproval(left.signal)
  } catch (error) {
    if (!left.signal.aborted && wallet.store.getState().step === 'device') wallet.store.setState({ error: shownError(latch, error) })
    return
  } finally {
    unsubscribe()
  }
  if (left.signal.aborted || wallet.store.getState().step !== 'device') return // the visitor left meanwhile
  wallet.store.setState({ step: 'otp' })
  latch._internal.router.replace('EmailVerifyOtp')
}
