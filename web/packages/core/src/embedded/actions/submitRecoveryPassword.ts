import type { Latch } from '../../latch-types'
import { requireEmbedded, shownError } from '../required'
import { finishEmailLogin } from './finishEmailLogin'

/** The recovery password's length limits (the frame's schema: 8 to 1024 characters). */
export const RECOVERY_PASSWORD_MIN = 8
export const RECOVERY_PASSWORD_MAX = 1024
/** Shown when the password is too short or too long (nothing is sent). */
export const INVALID_RECOVERY_PASSWORD_MESSAGE = `The recovery password has ${RECOVERY_PASSWORD_MIN} to ${RECOVERY_PASSWORD_MAX} characters`

/**
 * submitRecoveryPassword answers 'Recovery password required': the frame
 * decrypts the recovery share with the password (GET_USER's
 * recoveryPassword), rebuilds the key and keeps a new device share, so the
 * wallet then connects like any signed-in one. A wrong password stays on the
 * prompt with the frame's message ('Wrong recovery password') as the slice's
 * `error`. The password goes to the frame only; it is never stored here.
 */
export async function submitRecoveryPassword(latch: Latch, password: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  if (wallet.store.getState().step !== 'recoveryPassword') return
  if (password.length < RECOVERY_PASSWORD_MIN || password.length > RECOVERY_PASSWORD_MAX) {
    wallet.store.setState({ error: INVALID_RECOVERY_PASSWORD_MESSAGE })
    return
  }
  wallet.store.setState({ step: 'authenticating', error: undefined })
  try {
    const chainId = latch._internal.network.store.getState().activeNetwork.id
    await (await wallet.frame()).request('GET_USER', { chainId: `eip155:${chainId}`, recoveryPassword: password })
  } catch (error) {
    wallet.store.setState({ step: 'recoveryPassword', error: shownError(latch, error) })
    return
  }
  await finishEmailLogin(latch)
}
