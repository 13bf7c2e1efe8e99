import type { Latch } from '../../latch-types'
import { requireEmbedded } from '../required'

/**
 * signOut ends the e-mail wallet's session: the cached login data goes at
 * once and the frame gets at most 3 s to sign out (spec §4). When the wallet
 * is the connected one, this is the widget's disconnect.
 */
export async function signOut(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  if (wallet.store.getState().user) {
    await latch.disconnect()
    return
  }
  await (await wallet.frame()).signOut()
  wallet.store.setState({ step: 'idle', user: undefined, approval: undefined, error: undefined })
}
