// The frame's approval view (a script of its own, loaded when the first
// unsafe request comes): the request, decoded, the page's origin, and Reject
// and Approve. Approve answers only a click the browser made (isTrusted),
// and only once the frame has been visible for a moment (approvalArming.ts).
// Styles go in through CSSOM (a constructed sheet, element styles), which
// the frame's CSP (default-src 'none') allows, unlike a <style> element.
import type { Appearance, ShownRequest } from './approval'
import { createArming, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH, watchVisibility, type ArmingTimers } from './approvalArming'
import { decodeApproval, type ApprovalRow } from './approvalDecode'
import { loadStrings, RTL, type ApprovalStringKey } from './approvalStrings'

/** What showApproval needs. */
export interface ShowApprovalOptions {
  readonly window: Window
  readonly request: ShownRequest
  readonly appearance: Appearance
  /** The page's origin as the browser reported it: shown as the requester. */
  readonly pageOrigin: string
  readonly signal: AbortSignal
  readonly timers?: ArmingTimers
  /** Whether a click is the visitor's: the browser's isTrusted (tests make their own). */
  readonly trusted?: (event: Event) => boolean
}

const CSS = `
html,body{margin:0;height:100%;background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,sans-serif}
.card{box-sizing:border-box;height:100%;display:flex;flex-direction:column;gap:10px;padding:16px}
h1{font-size:16px;margin:0}
.origin,.hint,.busy,dt{margin:0;color:var(--muted)}
.origin b{color:var(--fg)}
.warn{margin:0;padding:8px;border-radius:var(--radius);background:var(--warn-bg);color:var(--warn-fg);font-weight:600}
.details{flex:1;overflow:auto;min-height:0}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:6px 12px}
dd,li,pre,.warn,.origin{margin:0;word-break:break-all;white-space:pre-wrap}
.mono,li,pre{font:12px ui-monospace,monospace}
pre{margin-top:8px;padding:8px;border-radius:var(--radius);background:var(--raw-bg);max-height:10em;overflow:auto}
.hint{font-size:12px;min-height:1.4em}
.buttons{display:flex;gap:8px}
button{flex:1;padding:10px;border-radius:var(--radius);font:inherit;font-weight:600;cursor:pointer;border:1px solid var(--line);background:var(--bg);color:var(--fg)}
.approve{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.approve:disabled{opacity:.5;cursor:not-allowed}
button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.busy{margin:auto}
`

const MODES = {
  light: { bg: '#ffffff', fg: '#141414', muted: '#5c5c5c', line: '#d4d4d4', 'raw-bg': '#f3f3f3', 'warn-bg': '#fde8e8', 'warn-fg': '#8a1111', accent: '#3b6cf6' },
  dark: { bg: '#191a1a', fg: '#f5f5f5', muted: '#a8a8a8', line: '#3a3a3a', 'raw-bg': '#252626', 'warn-bg': '#4a1616', 'warn-fg': '#ffd4d4', accent: '#6690ff' },
} as const

/** onAccent is black or white, whichever reads better on the hex colour c. */
function onAccent(c: string): string {
  const h = c.length === 4 ? c.slice(1).replace(/./g, (x) => x + x) : c.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? '#000000' : '#ffffff'
}

/** el makes an element with a class, a test id and text. */
function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, props: { className?: string; testId?: string; text?: string } = {}): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag)
  if (props.className) e.className = props.className
  if (props.testId) e.setAttribute('data-testid', props.testId)
  if (props.text !== undefined) e.textContent = props.text
  return e
}

function applyStyle(doc: Document, appearance: Appearance): void {
  const root = doc.documentElement
  const colours = MODES[appearance.mode]
  for (const [k, v] of Object.entries(colours)) root.style.setProperty(`--${k}`, v)
  const accent = appearance.accent ?? colours.accent
  root.style.setProperty('--accent', accent)
  root.style.setProperty('--on-accent', onAccent(accent))
  root.style.setProperty('--radius', `${appearance.radius ?? 8}px`)
  root.style.colorScheme = appearance.mode
  const Sheet = (doc.defaultView as (Window & typeof globalThis) | null)?.CSSStyleSheet
  if (Sheet && 'adoptedStyleSheets' in doc && typeof Sheet.prototype.replaceSync === 'function' && doc.adoptedStyleSheets.length === 0) {
    const sheet = new Sheet()
    sheet.replaceSync(CSS)
    doc.adoptedStyleSheets = [sheet]
  }
}

/**
 * showApproval shows request in the frame's document and resolves with the
 * visitor's answer: true after a trusted click on an armed Approve, false
 * after Reject. When signal aborts (RPC_ABORT, sign-out, the timeout) the
 * view goes and the promise rejects with its reason. After an answer the
 * view says that the wallet is signing, until the next request.
 */
export async function showApproval(o: ShowApprovalOptions): Promise<boolean> {
  const win = o.window
  const doc = win.document
  const lookup = await loadStrings(o.appearance.locale)
  o.signal.throwIfAborted()
  const trusted = o.trusted ?? ((e: Event) => e.isTrusted)
  const timers: ArmingTimers = o.timers ?? { setTimeout: (fn, ms) => win.setTimeout(fn, ms), clearTimeout: (h) => win.clearTimeout(h as number) }
  const decoded = await decodeApproval(o.request)
  o.signal.throwIfAborted()
  const t = (key: ApprovalStringKey, params?: Record<string, string>) => lookup(key, params, decoded.english)

  applyStyle(doc, o.appearance)
  const lang = o.appearance.locale ?? 'en'
  doc.documentElement.lang = lang
  doc.documentElement.dir = RTL.includes(lang.split('-')[0]!) ? 'rtl' : 'ltr'

  const card = el(doc, 'main', { className: 'card', testId: 'latch-approval' })
  card.setAttribute('aria-labelledby', 'latch-approval-title')
  const title = el(doc, 'h1', { text: t(decoded.title), testId: 'latch-approve-title' })
  title.id = 'latch-approval-title'
  const origin = el(doc, 'p', { className: 'origin', testId: 'latch-approve-origin' })
  const [before, after = ''] = t('approve.requestedBy').split('{origin}')
  origin.append(before ?? '', el(doc, 'b', { text: o.pageOrigin }), after)
  card.append(title, origin)
  for (const w of decoded.warnings) {
    const warn = el(doc, 'p', { className: 'warn', testId: 'latch-approve-warning', text: t(w.key, w.params) })
    warn.setAttribute('role', 'alert')
    card.append(warn)
  }

  const details = el(doc, 'div', { className: 'details', testId: 'latch-approve-details' })
  const dl = el(doc, 'dl')
  const row = (r: ApprovalRow) => {
    const dd = el(doc, 'dd', { className: r.mono ? 'mono' : '', testId: r.testId, text: r.valueKey ? t(r.valueKey) : r.value })
    if (r.mono) dd.dir = 'ltr'
    dl.append(el(doc, 'dt', { text: t(r.label) }), dd)
  }
  decoded.rows.forEach(row)
  details.append(dl)
  if (decoded.items) {
    details.append(el(doc, 'p', { className: 'origin', text: `${t(decoded.items.label)} (${decoded.items.lines.length})` }))
    const ol = el(doc, 'ol', { testId: decoded.items.testId })
    for (const line of decoded.items.lines) ol.append(el(doc, 'li', { text: line }))
    details.append(ol)
  }
  if (decoded.raw !== undefined) {
    const pre = el(doc, 'pre', { testId: 'latch-approve-raw', text: decoded.raw })
    pre.setAttribute('aria-label', t('approve.data'))
    details.append(pre)
  }
  card.append(details)

  const hint = el(doc, 'p', { className: 'hint', testId: 'latch-approve-hint', text: t('approve.arming') })
  hint.setAttribute('aria-live', 'polite')
  const buttons = el(doc, 'div', { className: 'buttons' })
  const reject = el(doc, 'button', { className: 'reject', testId: 'latch-approve-reject', text: t('approve.reject') })
  const approve = el(doc, 'button', { className: 'approve', testId: 'latch-approve-approve', text: t('approve.approve') })
  reject.type = approve.type = 'button'
  approve.disabled = true
  buttons.append(reject, approve)
  card.append(hint, buttons)

  const arming = createArming((armed) => {
    approve.disabled = !armed
    card.setAttribute('data-armed', String(armed))
    hint.textContent = armed ? '' : t('approve.arming')
  }, timers)
  card.setAttribute('data-armed', 'false')

  doc.body.replaceChildren(card)
  // Reject has the focus: a keystroke meant for the page (Enter, Space) never approves.
  reject.focus()
  const unwatch = watchVisibility(card, win, (visible) => {
    arming.visible(visible)
    if (!visible && win.innerWidth > 0 && (win.innerWidth < MIN_FRAME_WIDTH || win.innerHeight < MIN_FRAME_HEIGHT)) hint.textContent = t('approve.tooSmall')
  })

  return new Promise<boolean>((resolve, reject_) => {
    const finish = (answer: boolean) => {
      cleanup()
      doc.body.replaceChildren(el(doc, 'p', { className: 'busy', testId: 'latch-approve-working', text: answer ? t('approve.working') : '' }))
      resolve(answer)
    }
    const onAbort = () => {
      cleanup()
      doc.body.replaceChildren()
      reject_(o.signal.reason instanceof Error ? o.signal.reason : new Error(String(o.signal.reason)))
    }
    const cleanup = () => {
      unwatch()
      arming.stop()
      o.signal.removeEventListener('abort', onAbort)
    }
    approve.addEventListener('click', (e) => {
      // A click the page could not have made, on a button that has been visible long enough.
      if (trusted(e) && arming.armed()) finish(true)
    })
    reject.addEventListener('click', (e) => {
      if (trusted(e)) finish(false)
    })
    o.signal.addEventListener('abort', onAbort, { once: true })
  })
}
