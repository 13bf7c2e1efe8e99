import type { Latch } from '../../latch-types'
import { RECOVERY_PASSWORD_REQUIRED } from '../protocol'
import { errorMessage, requireEmbedded, shownError } from '../required'

/**
 * connectFarcaster signs in with Farcaster (spec §2's Farcaster view): the
 * modal shows ConnectingFarcaster, the frame opens a channel on latchd and
 * gives its farcaster:// URI (the slice's `social` is then step 'qr' with
 * `uri`, which the view shows as a QR code), and waits until the visitor's
 * Farcaster client signed in on it; then the wallet connects as after any
 * social login. Leaving the view (going back or closing the modal) while
 * unconnected ends the wait and resets the auth provider (spec §2: `social`
 * is cleared, the default e-mail again). A failure stays on the view as
 * step 'error' with its message. Never throws.
 */
export async function connectFarcaster(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { connection, network, router } = latch._internal
  const left = new AbortController()
  let connected = false
  const leave = () => {
    if (left.signal.aborted) return
    left.abort()
    if (!connected) wallet.store.setState({ social: undefined })
  }
  const set = (step: 'popup' | 'qr' | 'connecting' | 'done' | 'error', more: { uri?: string; error?: string } = {}) =>
    wallet.store.setState({ social: { provider: 'farcaster', step, error: more.error, ...(more.uri ? { uri: more.uri } : {}) } })
  set('popup')
  if (latch.getState().view !== 'ConnectingFarcaster') router.push('ConnectingFarcaster')
  const unsubscribe = latch.subscribe((state) => {
    if (state.view !== 'ConnectingFarcaster') leave()
  })
  try {
    const frame = await wallet.frame()
    const uri = await frame.farcasterUri()
    if (left.signal.aborted) return
    set('qr', { uri })
    const chainId = network.store.getState().activeNetwork.id
    await frame.connectFarcaster(typeof chainId === 'number' ? chainId : undefined, left.signal)
    if (left.signal.aborted) return
    set('connecting', { uri })
    try {
      await connection.connect(wallet.connectorId, { chainId })
    } catch (error) {
      if (errorMessage(error) !== RECOVERY_PASSWORD_REQUIRED) throw error
      // A new device of a wallet in password recovery mode: the e-mail views' password prompt continues.
      connected = true
      wallet.store.setState({ step: 'recoveryPassword', error: undefined })
      set('done')
      router.replace('EmailVerifyOtp')
      return
    }
    connected = true
  } catch (error) {
    if (!left.signal.aborted) set('error', { error: shownError(latch, error) })
    return
  } finally {
    unsubscribe()
  }
  set('done')
  wallet.connected()
}
