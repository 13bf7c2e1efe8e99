import { useEffect, useState } from 'react'
import { loadEmbeddedActions, type EmbeddedActions, type SocialProviderName } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useStrings } from '../../hooks/useT'
import { useEmbeddedState } from '../embedded/useEmbeddedState'
import { socialStrings } from './strings'

/** The socials latchd serves, with their names as shown (spec §9's list: the OAuth providers and Farcaster). */
const TITLES: Record<SocialName, string> = { google: 'Google', x: 'X', farcaster: 'Farcaster', discord: 'Discord', apple: 'Apple', github: 'GitHub', facebook: 'Facebook' }
// The e-mail wallet's actions (a module, the same for every instance on the page), loaded with this chunk.
let loadedActions: EmbeddedActions | undefined
/**
 * Settles (never rejects) once the actions have loaded or failed to: the Connect view's loader of this chunk waits
 * for it, so the buttons are enabled from their first render (after a failure their effect loads the actions again).
 */
export const actionsReady: Promise<void> = loadEmbeddedActions().then(
  (a) => void (loadedActions = a),
  () => undefined,
)

/** How many providers Connect shows before "More" (spec §9's default list shows the first three). */
export const SOCIALS_SHOWN = 3

/** A social of the widget's list: an OAuth provider or farcaster. */
export type SocialName = SocialProviderName | 'farcaster'

/**
 * socialsFor is the project's socials that can be offered here, in its order,
 * less those a Telegram mini-app cannot open on its platform (spec §2: iOS no
 * google, macOS no x, Android no facebook and x).
 */
export function socialsFor(socials: readonly string[], telegramPlatform?: string): SocialName[] {
  const hidden: Record<string, readonly string[]> = { ios: ['google'], macos: ['x'], android: ['facebook', 'x'] }
  const drop = (telegramPlatform && hidden[telegramPlatform]) || []
  return socials.filter((s): s is SocialName => s in TITLES && !drop.includes(s))
}

function telegramPlatform(): string | undefined {
  return (globalThis as { Telegram?: { WebApp?: { platform?: string } } }).Telegram?.WebApp?.platform
}

/**
 * The social buttons of the Connect view (a chunk of its own): the first
 * providers, then "More", which opens ConnectSocials with every one. An OAuth
 * provider's click opens the popup at once (a popup opened after an await is
 * blocked), then the login runs in core's connectSocial: the clicked button
 * shows it is pending, the others wait, and a failure (a closed popup,
 * latchd's refusal) is shown under the buttons. In a Telegram mini-app the
 * page goes to the provider instead (core's startSocialRedirect). Farcaster's
 * click opens ConnectingFarcaster (core's connectFarcaster).
 */
export default function SocialLogin() {
  return <SocialButtons all={false} />
}

/** The social buttons: the first few and More (Connect), or all of them (ConnectSocials). */
export function SocialButtons({ all }: { all: boolean }) {
  const latch = useLatchInstance()
  const s = useStrings(socialStrings)
  const state = useEmbeddedState()
  const socials = useLatchSelector((s) => s.features.socials)
  const [actions, setActions] = useState(() => loadedActions)
  // The actions chunk is loaded now (if it has not yet), so that the click can open the popup synchronously.
  useEffect(() => {
    if (actions) return
    let current = true
    void loadEmbeddedActions().then((a) => {
      loadedActions = a
      if (current) setActions(() => a)
    })
    return () => {
      current = false
    }
  }, [actions])
  const frameUrl = latch._internal.opts.frameUrl
  const providers = socialsFor(socials || [], telegramPlatform())
  if (!state || !frameUrl || providers.length === 0) return null
  const social = state.social
  const busy = social !== undefined && (social.step === 'popup' || social.step === 'connecting')
  const start = (provider: SocialName) => {
    if (!actions || busy) return
    if (provider === 'farcaster') {
      void actions.connectFarcaster(latch)
      return
    }
    // A Telegram mini-app opens no popup: the page itself goes to the provider and comes back (spec §2).
    if (actions.isTelegramMiniApp()) {
      void actions.startSocialRedirect(latch, provider)
      return
    }
    const popup = actions.openSocialPopup()
    void actions.connectSocial(latch, provider, popup)
  }
  const shown = all || providers.length <= SOCIALS_SHOWN + 1 ? providers : providers.slice(0, SOCIALS_SHOWN)
  return (
    <div data-testid={all ? 'latch-all-socials' : 'latch-social-login'}>
      <ul className="latch-list" aria-label={s('social.label')}>
        {shown.map((p) => {
          const pending = busy && social?.provider === p
          return (
            <li key={p}>
              <button
                type="button"
                className="latch-list-item"
                disabled={!actions || busy}
                aria-busy={pending || undefined}
                onClick={() => start(p)}
                data-testid={`latch-social-${p}`}
              >
                <span className="latch-wallet-image" aria-hidden="true">
                  {TITLES[p].slice(0, 1)}
                </span>
                <span className="latch-list-item-name">{s('social.continueWith', { provider: TITLES[p] })}</span>
                {pending ? <span className="latch-spinner" role="status" aria-label={social?.step === 'popup' ? s('social.popupOpen') : s('social.connecting')} data-testid="latch-social-pending" /> : null}
              </button>
            </li>
          )
        })}
        {shown.length < providers.length ? (
          <li>
            <button type="button" className="latch-list-item" onClick={() => latch._internal.router.push('ConnectSocials')} data-testid="latch-social-more">
              <span className="latch-list-item-name">{s('social.more')}</span>
              <span className="latch-tag">{providers.length - shown.length}</span>
            </button>
          </li>
        ) : null}
      </ul>
      {social?.step === 'error' && social.error && social.provider !== 'farcaster' ? (
        <p className="latch-error-text" role="alert" data-testid="latch-social-error">
          {social.error}
        </p>
      ) : null}
    </div>
  )
}
