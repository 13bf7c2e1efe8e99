// The visitor's approval of an unsafe request, taken in the frame itself:
// the page is told only that an approval waits (RPC_APPROVAL_REQUIRED, so it
// shows the frame over its modal) and, later, the request's result. The
// view that shows the request and its Approve button is a script of its own
// (approvalView.ts), loaded when first needed; this file, part of the script
// up to READY, holds the queue (one approval shown at a time), the timeout,
// and the look the page asked for (SYNC_THEME).
import { APPROVAL_TIMED_OUT, USER_REJECTED_CODE, type AppPayload, type ApprovalRequest } from '../../core/src/embedded/protocol'

/** A request the frame shows the visitor: what the page is told, and the parameters to be signed (filled in: nonce, fees). */
export interface ShownRequest extends ApprovalRequest {
  readonly params: unknown
}

/**
 * Shows request and resolves with the visitor's answer (true: Approve);
 * rejects with signal's reason when signal aborts, and removes the view.
 */
export type ApprovalPrompt = (request: ShownRequest, signal: AbortSignal) => Promise<boolean>

/** How long a request waits for the visitor before it fails with APPROVAL_TIMED_OUT. */
export const APPROVAL_TIMEOUT_MS = 5 * 60_000

/** The widget's look and language, as the frame uses them (SYNC_THEME, checked). */
export interface Appearance {
  readonly mode: 'light' | 'dark'
  /** The Approve button's colour: #rgb or #rrggbb only. */
  readonly accent: string | undefined
  /** Corner radius in px (0–24). */
  readonly radius: number | undefined
  /** The widget's locale (a BCP 47 tag); English when the frame has no strings in it. */
  readonly locale: string | undefined
}

/** The look before the page says anything. */
export const DEFAULT_APPEARANCE: Appearance = { mode: 'light', accent: undefined, radius: undefined, locale: undefined }

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/**
 * appearanceOf keeps what the frame takes of SYNC_THEME: the mode, an accent
 * colour (the widget's --latch-accent / accent variable, hex only), a radius
 * and the locale. Anything else (a colour function, a gradient, text
 * colours) is dropped: a page cannot style the request's text away.
 */
export function appearanceOf(p: AppPayload<'SYNC_THEME'>): Appearance {
  const vars = p.themeVariables ?? {}
  const accent = vars['--latch-accent'] ?? vars['accent'] ?? vars['--w3m-accent']
  // The widget's radius unit (its buttons are about twice that).
  const radius = vars['--latch-border-radius-master'] ?? vars['--w3m-border-radius-master']
  const unit = typeof radius === 'number' ? radius : typeof radius === 'string' && /^\d{1,2}(?:px)?$/.test(radius) ? parseInt(radius, 10) : undefined
  const px = unit === undefined ? undefined : unit * 2
  return {
    mode: p.themeMode ?? 'light',
    accent: typeof accent === 'string' && HEX_COLOUR.test(accent) ? accent : undefined,
    radius: px !== undefined && px >= 0 && px <= 24 ? px : undefined,
    locale: p.locale,
  }
}

/** An approval that failed for a reason the page should see with the user-rejected code (timeout). */
export class ApprovalError extends Error {
  override name = 'ApprovalError'
  readonly code = USER_REJECTED_CODE
}

/** What createApprovalQueue needs. */
export interface ApprovalQueueDeps {
  readonly prompt: ApprovalPrompt
  readonly timeoutMs?: number
  readonly setTimeout?: (fn: () => void, ms: number) => unknown
  readonly clearTimeout?: (handle: unknown) => void
}

/**
 * createApprovalQueue shows one request at a time: ask waits for the ones
 * before it, then for the visitor, at most timeoutMs (then APPROVAL_TIMED_OUT).
 * signal ends the wait (RPC_ABORT, sign-out), shown or still queued.
 */
export function createApprovalQueue(deps: ApprovalQueueDeps) {
  const timeoutMs = deps.timeoutMs ?? APPROVAL_TIMEOUT_MS
  const setTimer = deps.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const clearTimer = deps.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>))
  let line: Promise<unknown> = Promise.resolve()

  return function ask(request: ShownRequest, signal: AbortSignal): Promise<boolean> {
    const turn = line.then(async () => {
      signal.throwIfAborted()
      // The timeout aborts the view as RPC_ABORT would, with its own reason.
      const own = new AbortController()
      const stop = () => own.abort(signal.reason)
      signal.addEventListener('abort', stop, { once: true })
      const timer = setTimer(() => own.abort(new ApprovalError(APPROVAL_TIMED_OUT)), timeoutMs)
      try {
        return await deps.prompt(request, own.signal)
      } finally {
        clearTimer(timer)
        signal.removeEventListener('abort', stop)
      }
    })
    line = turn.catch(() => undefined)
    return turn
  }
}

/** What the browser's prompt needs: the frame's window, the look in force, and the page's origin (shown as the requester). */
export interface BrowserPromptDeps {
  readonly window: Window
  readonly appearance: () => Appearance
  readonly pageOrigin: string
}

/** browserPrompt is the ApprovalPrompt of a real frame: approvalView.ts, loaded on first use. */
export function browserPrompt(deps: BrowserPromptDeps): ApprovalPrompt {
  return async (request, signal) => {
    const { showApproval } = await import('./approvalView')
    signal.throwIfAborted()
    return showApproval({ window: deps.window, request, appearance: deps.appearance(), pageOrigin: deps.pageOrigin, signal })
  }
}
