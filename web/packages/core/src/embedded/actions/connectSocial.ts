import type { Latch } from '../../latch-types'
import { OAUTH_SOCIAL_PROVIDERS, RECOVERY_PASSWORD_REQUIRED, SOCIAL_PROVIDER_MESSAGE } from '../protocol'
import { errorMessage, requireEmbedded, shownError, shownMessage } from '../required'
import { beginSocialLogin, SOCIAL_POPUP_BLOCKED, waitForSocialResult, type SocialWaitOptions } from '../socialPopup'
import type { SocialProviderName } from '../state'

/**
 * connectSocial logs in with a social provider through popup, which the
 * caller opened at the click (openSocialPopup; null when it was blocked):
 * the frame gives the login's begin URL (keeping the PKCE verifier), the
 * page posts the popup there (beginSocialLogin), latchd binds the login to
 * this browser and sends the popup to the provider, latchd's callback page
 * on the frame origin posts the result
 * URI back (only that origin and that window are heard), the frame exchanges
 * it for a session, and the wallet connects like an e-mail login's. The
 * slice's `social` says where it stands (popup → connecting → done, or the
 * error: spec §5's message for another provider, a blocked or closed popup,
 * latchd's refusal). Never throws.
 */
export async function connectSocial(
  latch: Latch,
  provider: string,
  popup: Window | null,
  options: Omit<SocialWaitOptions, 'frameOrigin'> = {},
): Promise<void> {
  const wallet = requireEmbedded(latch)
  const fail = (message: string) => {
    popup?.close()
    wallet.store.setState({ social: { provider: provider as SocialProviderName, step: 'error', error: message } })
  }
  if (!(OAUTH_SOCIAL_PROVIDERS as readonly string[]).includes(provider)) return fail(SOCIAL_PROVIDER_MESSAGE)
  const name = provider as SocialProviderName
  if (!popup) return fail(shownMessage(latch, SOCIAL_POPUP_BLOCKED))
  wallet.store.setState({ social: { provider: name, step: 'popup', error: undefined }, error: undefined })
  let resultUri: string
  try {
    const frame = await wallet.frame()
    beginSocialLogin(await frame.socialRedirectUri(name), popup.name)
    resultUri = await waitForSocialResult(popup, { ...options, frameOrigin: frame.origin })
    popup.close()
  } catch (error) {
    return fail(shownError(latch, error))
  }
  await finishSocialLogin(latch, name, resultUri)
}

/**
 * finishSocialLogin hands the frame a login's result URI (from the popup,
 * or from the address in redirect mode) and connects the wallet; the
 * slice's `social` follows (connecting → done, or the error). Never throws.
 */
export async function finishSocialLogin(latch: Latch, name: SocialProviderName, resultUri: string): Promise<void> {
  const wallet = requireEmbedded(latch)
  const { connection, network } = latch._internal
  wallet.store.setState({ social: { provider: name, step: 'connecting', error: undefined } })
  try {
    const frame = await wallet.frame()
    const chainId = network.store.getState().activeNetwork.id
    await frame.connectSocial(resultUri, chainId)
    try {
      await connection.connect(wallet.connectorId, { chainId })
    } catch (error) {
      if (errorMessage(error) !== RECOVERY_PASSWORD_REQUIRED) throw error
      // A new device of a wallet in password recovery mode: the e-mail views' password prompt continues
      // (submitRecoveryPassword); the social login itself is done.
      wallet.store.setState({ step: 'recoveryPassword', error: undefined, social: { provider: name, step: 'done', error: undefined } })
      latch._internal.router.push('EmailVerifyOtp')
      return
    }
  } catch (error) {
    wallet.store.setState({ social: { provider: name, step: 'error', error: shownError(latch, error) } })
    return
  }
  wallet.store.setState({ social: { provider: name, step: 'done', error: undefined } })
  wallet.connected()
}
