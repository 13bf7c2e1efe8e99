// The social login popup on the page's side (spec §7, docs/social.md): it is
// opened at the click (a popup opened after an await is blocked), posted to
// the login's begin URL on the frame origin (beginSocialLogin: latchd checks
// this page's Origin and binds the login to this browser with a cookie), sent
// on to the provider, and comes back to latchd's callback page on the frame
// origin, which posts {resultUri} to this window. Only a message from the
// frame origin and from that popup is taken: anything else (another origin,
// another window) is ignored.
import { globalTimers, type TimerHandle, type Timers } from '../timers'

/** What the popup says until the provider's page loads. */
export const SOCIAL_POPUP_LOADING = 'Loading…'
/** The window was closed before the provider sent the visitor back. */
export const SOCIAL_POPUP_CLOSED = 'The login window was closed before the login finished'
/** window.open was refused (a blocker, or no click). */
export const SOCIAL_POPUP_BLOCKED = 'The login window was blocked: allow pop-ups for this site and try again'
/** latchd's social logins expire after 10 minutes: the page stops waiting then. */
export const SOCIAL_POPUP_TIMEOUT = 'The social login took too long: please start again'
/** How long the page waits for the popup (latchd's flow lifetime). */
export const SOCIAL_POPUP_WAIT_MS = 10 * 60_000
/** How often the page checks whether the popup was closed. */
export const SOCIAL_POPUP_POLL_MS = 500

/** The window features of the popup: a centred 500 × 640 window. */
function features(win: Window): string {
  const w = 500
  const h = 640
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - w) / 2))
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - h) / 2))
  return `popup=yes,width=${w},height=${h},left=${left},top=${top}`
}

/**
 * openSocialPopup opens the popup on a blank page that says it is loading.
 * Call it synchronously in the click handler; null when the browser refused.
 * The blank page is the opener's own and complete at once, so the
 * navigation to the provider cannot race a first page still loading (a page
 * of another origin would be: its navigation could land after the
 * provider's and undo it).
 */
export function openSocialPopup(win: Window = window): Window | null {
  // A name of its own, so that beginSocialLogin's form can target it.
  const name = `latch-social-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`
  const popup = win.open('about:blank', name, features(win))
  try {
    if (popup) popup.document.title = popup.document.body.textContent = SOCIAL_POPUP_LOADING
  } catch {
    // A browser that gives the blank page another origin: it stays blank.
  }
  return popup
}

/**
 * beginSocialLogin sends a window to a login's begin URL (the frame's answer
 * to GET_SOCIAL_REDIRECT_URI) by a form post from this page's document: the
 * browser then sends the page's Origin, which latchd requires to be the
 * origin the login was started for before it sets the HttpOnly cookie that
 * binds the login to this browser and answers a redirect to the provider.
 * target is the popup's name, or '_self' in redirect mode.
 */
export function beginSocialLogin(uri: string, target: string, doc: Document = document): void {
  const form = doc.createElement('form')
  form.method = 'post'
  form.action = uri
  form.target = target
  form.hidden = true
  doc.body.append(form)
  try {
    form.submit()
  } finally {
    form.remove()
  }
}

/** Where the popup's message arrives: the page's window. */
export interface MessageTarget {
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (ev: MessageEvent) => void): void
}

/** What waitForSocialResult needs besides the popup. */
export interface SocialWaitOptions {
  /** The frame origin: the only origin whose message is taken. */
  readonly frameOrigin: string
  /** The window the popup posts to (the page). */
  readonly win?: MessageTarget
  readonly timers?: Timers
  /** Ends the wait (the visitor left the view). */
  readonly signal?: AbortSignal
}

/**
 * waitForSocialResult resolves with the result URI the popup's callback page
 * posts, or rejects when the popup is closed first, after
 * SOCIAL_POPUP_WAIT_MS, or when signal aborts.
 */
export function waitForSocialResult(popup: Pick<Window, 'closed'>, options: SocialWaitOptions): Promise<string> {
  const win: MessageTarget = options.win ?? window
  const timers = options.timers ?? globalTimers
  return new Promise<string>((resolve, reject) => {
    let poll: TimerHandle | undefined
    const done = (fn: () => void) => {
      win.removeEventListener('message', onMessage)
      timers.clearTimeout(poll)
      timers.clearTimeout(deadline)
      options.signal?.removeEventListener('abort', onAbort)
      fn()
    }
    const onMessage = (ev: MessageEvent) => {
      if (ev.origin !== options.frameOrigin || ev.source !== (popup as unknown as MessageEventSource)) return
      const uri = (ev.data as { resultUri?: unknown } | null)?.resultUri
      if (typeof uri !== 'string' || uri.length === 0 || uri.length > 4096) return
      done(() => resolve(uri))
    }
    const onAbort = () => done(() => reject(new Error(SOCIAL_POPUP_CLOSED)))
    win.addEventListener('message', onMessage)
    const check = () => {
      if (popup.closed) done(() => reject(new Error(SOCIAL_POPUP_CLOSED)))
      else poll = timers.setTimeout(check, SOCIAL_POPUP_POLL_MS)
    }
    poll = timers.setTimeout(check, SOCIAL_POPUP_POLL_MS)
    const deadline = timers.setTimeout(() => done(() => reject(new Error(SOCIAL_POPUP_TIMEOUT))), SOCIAL_POPUP_WAIT_MS)
    if (options.signal?.aborted) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })
  })
}
