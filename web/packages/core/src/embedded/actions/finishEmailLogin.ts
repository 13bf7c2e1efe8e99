import type { Latch } from '../../latch-types'
import { RECOVERY_PASSWORD_REQUIRED } from '../protocol'
import { errorMessage, requireEmbedded, shownMessage } from '../required'

/**
 * finishEmailLogin connects the signed-in embedded wallet through wagmi (its
 * connector asks the frame for the user, creating or recovering the wallet)
 * and closes the modal like any wallet connection. A new device of a wallet
 * whose recovery share is under the visitor's password cannot rebuild the
 * key without it: the frame answers 'Recovery password required' and the
 * step becomes `recoveryPassword` (submitRecoveryPassword continues).
 */
export async function finishEmailLogin(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { connection, network } = latch._internal
  wallet.store.setState({ step: 'authenticating', error: undefined })
  try {
    await connection.connect(wallet.connectorId, { chainId: network.store.getState().activeNetwork.id })
  } catch (error) {
    const message = errorMessage(error)
    if (message === RECOVERY_PASSWORD_REQUIRED) wallet.store.setState({ step: 'recoveryPassword', error: undefined })
    else wallet.store.setState({ step: 'otp', error: shownMessage(latch, message) })
    return
  }
  wallet.connected()
}
