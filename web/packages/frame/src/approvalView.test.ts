// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_APPEARANCE, type ShownRequest } from './approval'
import { ARM_DELAY_MS, createArming, hasVisibilityTracking } from './approvalArming'
import { showApproval } from './approvalView'

const ADDR = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const personalSign: ShownRequest = { requestId: 'r1', method: 'personal_sign', params: ['0x68656c6c6f', ADDR], chainNamespace: 'eip155', chainId: 31337 }

// IntersectionObserver as the browser would drive it: the test says what the frame's visibility is.
let observers: { cb: IntersectionObserverCallback; options: IntersectionObserverInit & { trackVisibility?: boolean } }[] = []
class FakeObserver {
  constructor(cb: IntersectionObserverCallback, options: IntersectionObserverInit) {
    observers.push({ cb, options })
  }
  observe() {}
  disconnect() {}
}
// Chromium's entry has isVisible as an accessor of its prototype, which is what the frame looks for.
class EntryV2 {
  get isVisible() {
    return false
  }
}
/** see reports the frame's visibility to every observer: on screen (isIntersecting), and v2's isVisible. */
function see(on: { intersecting: boolean; visible?: boolean }) {
  for (const o of observers) {
    const entry = { isIntersecting: on.intersecting, intersectionRatio: on.intersecting ? 1 : 0, isVisible: on.visible ?? false } as unknown as IntersectionObserverEntry
    o.cb([entry], {} as IntersectionObserver)
  }
}

// Events the test marks as the browser's own (jsdom's are all untrusted, as a page's would be in a real frame).
const trustedEvents = new WeakSet<Event>()
const trustedClick = (el: Element) => {
  const e = new MouseEvent('click', { bubbles: true })
  trustedEvents.add(e)
  el.dispatchEvent(e)
}
const q = (id: string) => document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)!

function show(request = personalSign, extra: { signal?: AbortSignal } = {}) {
  const ctl = new AbortController()
  let answer: boolean | Error | undefined
  const done = showApproval({
    window,
    request,
    appearance: DEFAULT_APPEARANCE,
    pageOrigin: 'https://app.example',
    signal: extra.signal ?? ctl.signal,
    trusted: (e) => trustedEvents.has(e),
  }).then(
    (v) => (answer = v),
    (e: Error) => (answer = e),
  )
  return { ctl, done, answer: () => answer }
}

beforeEach(() => {
  vi.useFakeTimers()
  observers = []
  Object.assign(window, { IntersectionObserver: FakeObserver, IntersectionObserverEntry: EntryV2 })
})
afterEach(() => {
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('createArming', () => {
  it('arms only after the frame was visible for the whole delay, and disarms at once when it is not', () => {
    let t = 0
    const timers: { at: number; fn: () => void }[] = []
    const changes: boolean[] = []
    const arming = createArming((a) => changes.push(a), {
      setTimeout: (fn, ms) => timers.push({ at: t + ms, fn }) - 1,
      clearTimeout: (h) => (timers[h as number]!.fn = () => undefined),
    })
    const advance = (ms: number) => {
      t += ms
      for (const x of timers.splice(0)) if (x.at <= t) x.fn()
        else timers.push(x)
    }
    arming.visible(true)
    advance(ARM_DELAY_MS - 1)
    expect(arming.armed()).toBe(false)
    arming.visible(false) // hidden just before: the delay starts again
    arming.visible(true)
    advance(ARM_DELAY_MS - 1)
    expect(arming.armed()).toBe(false)
    advance(1)
    expect(arming.armed()).toBe(true)
    arming.visible(false)
    expect(arming.armed()).toBe(false)
    expect(changes).toEqual([true, false])
  })
})

describe('showApproval', () => {
  it('uses IntersectionObserver v2 (trackVisibility, delay 100) where the browser has it', async () => {
    show()
    await vi.waitFor(() => expect(observers).toHaveLength(1))
    expect(hasVisibilityTracking(window)).toBe(true)
    expect(observers[0]!.options).toMatchObject({ trackVisibility: true, delay: 100 })
  })

  it('shows the decoded request and the page origin; Reject has the focus', async () => {
    show()
    await vi.waitFor(() => expect(q('latch-approve-message')).not.toBeNull())
    expect(q('latch-approve-message').textContent).toBe('hello')
    expect(q('latch-approve-origin').textContent).toBe('Requested by https://app.example')
    expect(q('latch-approve-network').textContent).toBe('Localhost 31337')
    expect(document.activeElement).toBe(q('latch-approve-reject'))
  })

  it('is not armed before the frame has been visible for the delay: an early click does nothing', async () => {
    const s = show()
    await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
    const approve = q('latch-approve-approve')
    expect(approve.disabled).toBe(true)
    trustedClick(approve) // not visible yet
    see({ intersecting: true, visible: true })
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS - 1)
    trustedClick(approve)
    await vi.advanceTimersByTimeAsync(0)
    expect(s.answer()).toBeUndefined()
    expect(approve.disabled).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(approve.disabled).toBe(false)
    trustedClick(approve)
    await s.done
    expect(s.answer()).toBe(true)
    expect(q('latch-approve-working').textContent).toBe('Approved: signing…')
  })

  it('ignores an untrusted click on an armed Approve', async () => {
    const s = show()
    await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
    see({ intersecting: true, visible: true })
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS)
    const approve = q('latch-approve-approve')
    expect(approve.disabled).toBe(false)
    approve.click()
    approve.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.answer()).toBeUndefined()
    trustedClick(q('latch-approve-reject'))
    await s.done
    expect(s.answer()).toBe(false)
  })

  it('never arms while the frame is on screen but covered or faded (v2 isVisible false), and disarms when that happens later', async () => {
    const s = show()
    await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
    const approve = q('latch-approve-approve')
    see({ intersecting: true, visible: false })
    await vi.advanceTimersByTimeAsync(5 * ARM_DELAY_MS)
    expect(approve.disabled).toBe(true)
    trustedClick(approve)
    see({ intersecting: true, visible: true })
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS)
    expect(approve.disabled).toBe(false)
    see({ intersecting: true, visible: false }) // a layer put over it
    expect(approve.disabled).toBe(true)
    trustedClick(approve)
    await vi.advanceTimersByTimeAsync(0)
    expect(s.answer()).toBeUndefined()
    s.ctl.abort(new Error('Request was aborted'))
    await s.done
    expect((s.answer() as Error).message).toBe('Request was aborted')
    expect(document.body.children).toHaveLength(0)
  })

  it('without IntersectionObserver v2, arms after the delay from being on screen, and disarms when it leaves', async () => {
    Object.assign(window, { IntersectionObserverEntry: class {} })
    const s = show()
    await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
    expect(observers[0]!.options.trackVisibility).toBeUndefined()
    const approve = q('latch-approve-approve')
    see({ intersecting: true })
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS - 1)
    expect(approve.disabled).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(approve.disabled).toBe(false)
    see({ intersecting: false }) // display: none again
    expect(approve.disabled).toBe(true)
    see({ intersecting: true })
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS)
    trustedClick(approve)
    await s.done
    expect(s.answer()).toBe(true)
  })

  it('does not arm in a frame shrunk below what shows the request', async () => {
    const width = window.innerWidth
    Object.assign(window, { innerWidth: 120 })
    try {
      show()
      await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
      see({ intersecting: true, visible: true })
      await vi.advanceTimersByTimeAsync(5 * ARM_DELAY_MS)
      expect(q('latch-approve-approve').disabled).toBe(true)
      expect(q('latch-approve-hint').textContent).toBe('This window is too small to show the request')
    } finally {
      Object.assign(window, { innerWidth: width })
    }
  })

  it("speaks the widget's language, and an unlimited ERC-20 approval is called out", async () => {
    const spender = '0x' + '12'.repeat(20)
    const token = '0x' + 'ab'.repeat(20)
    const data = `0x095ea7b3${spender.slice(2).padStart(64, '0')}${'f'.repeat(64)}`
    const ctl = new AbortController()
    void showApproval({
      window,
      request: { requestId: 'r', method: 'eth_sendTransaction', params: [{ from: ADDR, to: token, value: '0x0', data, gas: '0x5208', maxFeePerGas: '0x1' }], chainNamespace: 'eip155', chainId: 1 },
      appearance: { ...DEFAULT_APPEARANCE, locale: 'de' },
      pageOrigin: 'https://app.example',
      signal: ctl.signal,
    }).catch(() => undefined)
    await vi.waitFor(() => expect(q('latch-approve-approve')).not.toBeNull())
    expect(q('latch-approve-approve').textContent).toBe('Bestätigen')
    expect(q('latch-approve-reject').textContent).toBe('Ablehnen')
    expect(document.documentElement.lang).toBe('de')
    expect(q('latch-approve-warning').textContent).toContain(spender)
    expect(q('latch-approve-allowance').textContent).toBe('∞')
    ctl.abort(new Error('done'))
  })
})
