import type { Latch } from '../../latch-types'
import { errorMessage, requireEmbedded } from '../required'

/**
 * finishEmailLogin connects the signed-in embedded wallet through wagmi (its
 * connector asks the frame for the user, creating or recovering the wallet)
 * and closes the modal like any wallet connection.
 */
export async function finishEmailLogin(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { connection, network } = latch._internal
  wallet.store.setState({ step: 'authenticating', error: undefined })
  try {
    await connection.connect(wallet.connectorId, { chainId: network.store.getState().activeNetwork.id })
  } catch (error) {
    wallet.store.setState({ step: 'otp', error: errorMessage(error) })
    return
  }
  wallet.connected()
}
