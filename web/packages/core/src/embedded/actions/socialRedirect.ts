// Social login in redirect mode (spec §2: a Telegram mini-app, where no
// popup opens): the page itself goes to the provider (through the login's
// begin URL, which binds the login to this browser), latchd's callback sends
// it back with the result URI in its result_uri parameter, and the page,
// starting again, reads it, removes it from the address 100 ms later, and
// finishes the login. The frame keeps the PKCE verifier across the reload.
import type { Latch } from '../../latch-types'
import { globalTimers, type Timers } from '../../timers'
import { OAUTH_SOCIAL_PROVIDERS, SOCIAL_PROVIDER_MESSAGE } from '../protocol'
import { requireEmbedded, shownError } from '../required'
import { beginSocialLogin } from '../socialPopup'
import type { SocialProviderName } from '../state'
import { finishSocialLogin } from './connectSocial'

/** The provider of a redirect-mode login under way: the page that comes back finishes only its own login. */
export const TELEGRAM_SOCIAL_PROVIDER_KEY = '@latch-wallet/telegram_social_provider'
/** The query parameter latchd's callback gives the page back. */
export const RESULT_URI_PARAM = 'result_uri'
/** How long result_uri stays in the address after the page read it (spec §2). */
export const RESULT_URI_REMOVE_MS = 100

/** The page's window as redirect mode uses it. */
export interface RedirectWindow {
  readonly document: Document
  readonly location: { href: string }
  readonly history: Pick<History, 'replaceState' | 'state'>
  readonly localStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

/** isTelegramMiniApp reports whether the page runs in a Telegram mini-app (Telegram's WebApp script is loaded). */
export function isTelegramMiniApp(win: unknown = globalThis): boolean {
  return Boolean((win as { Telegram?: { WebApp?: unknown } }).Telegram?.WebApp)
}

/** withoutResultUri is href without its result_uri parameter. */
function withoutResultUri(href: string): string {
  const u = new URL(href)
  u.searchParams.delete(RESULT_URI_PARAM)
  return u.toString()
}

/**
 * readResultUri returns the address's result_uri (undefined when none) and
 * removes it from the address RESULT_URI_REMOVE_MS later, keeping the rest
 * of the address and the history entry.
 */
export function readResultUri(win: Pick<RedirectWindow, 'location' | 'history'>, timers: Timers = globalTimers): string | undefined {
  const result = new URL(win.location.href).searchParams.get(RESULT_URI_PARAM)
  if (!result) return undefined
  timers.setTimeout(() => win.history.replaceState(win.history.state, '', withoutResultUri(win.location.href)), RESULT_URI_REMOVE_MS)
  return result
}

/**
 * startSocialRedirect starts a social login in redirect mode: the frame gives
 * the begin URL of a login that comes back to this page, and the page posts
 * itself there (beginSocialLogin: latchd binds the login to this browser and
 * sends the page on to the provider). Failures are the slice's `social`
 * error, as in connectSocial.
 */
export async function startSocialRedirect(latch: Latch, provider: string, win: RedirectWindow = window): Promise<void> {
  const wallet = requireEmbedded(latch)
  const fail = (message: string) => wallet.store.setState({ social: { provider: provider as SocialProviderName, step: 'error', error: message } })
  if (!(OAUTH_SOCIAL_PROVIDERS as readonly string[]).includes(provider)) return fail(SOCIAL_PROVIDER_MESSAGE)
  const name = provider as SocialProviderName
  wallet.store.setState({ social: { provider: name, step: 'popup', error: undefined }, error: undefined })
  try {
    const uri = await (await wallet.frame()).socialRedirectUri(name, withoutResultUri(win.location.href))
    win.localStorage.setItem(TELEGRAM_SOCIAL_PROVIDER_KEY, name)
    beginSocialLogin(uri, '_self', win.document)
  } catch (error) {
    fail(shownError(latch, error))
  }
}

/**
 * finishSocialRedirect runs as the page starts: when the address carries
 * result_uri and this page started a redirect-mode login, it reads the
 * result (removed from the address 100 ms later) and finishes the login as
 * a popup's result would. Without a login of its own it leaves the address
 * alone. Never throws.
 */
export async function finishSocialRedirect(latch: Latch, win: RedirectWindow = window, timers: Timers = globalTimers): Promise<void> {
  const provider = win.localStorage.getItem(TELEGRAM_SOCIAL_PROVIDER_KEY)
  if (!provider || !(OAUTH_SOCIAL_PROVIDERS as readonly string[]).includes(provider)) return
  const result = readResultUri(win, timers)
  if (!result) return
  win.localStorage.removeItem(TELEGRAM_SOCIAL_PROVIDER_KEY)
  await finishSocialLogin(latch, provider as SocialProviderName, result)
}
