// When the approval view's Approve button may be used: only after the frame
// has been visible, whole and unobscured, for ARM_DELAY_MS without a break.
// This is what stops a page from getting the visitor's click through a
// frame it hides (a transparent layer on top, a low opacity, a frame moved
// under the pointer just before a click): the page controls the iframe
// element, so the frame checks what the browser says of it.
//
// Where the browser has IntersectionObserver v2 (Chromium), it reports
// whether the frame is actually visible: not covered by anything (even a
// layer with pointer-events: none), at full opacity, without filters or
// skewing transforms. Elsewhere the frame knows only that it is on screen,
// in a shown tab, and big enough: it arms after the same delay, and disarms
// whenever that is lost.

/** How long the frame must have been visible before Approve arms. */
export const ARM_DELAY_MS = 500
/** IntersectionObserver v2's visibility delay (its minimum is 100 ms). */
export const VISIBILITY_DELAY_MS = 100
/** The smallest frame that shows a request: a page cannot arm a frame it shrank to the button. */
export const MIN_FRAME_WIDTH = 240
export const MIN_FRAME_HEIGHT = 240

/** Timers, injected in tests. */
export interface ArmingTimers {
  readonly setTimeout: (fn: () => void, ms: number) => unknown
  readonly clearTimeout: (handle: unknown) => void
}

/** The arming state machine: visible(true) starts the delay, visible(false) disarms at once. */
export interface Arming {
  visible(isVisible: boolean): void
  armed(): boolean
  stop(): void
}

/** createArming calls onChange(armed) whenever Approve arms or disarms. */
export function createArming(onChange: (armed: boolean) => void, timers: ArmingTimers, delayMs = ARM_DELAY_MS): Arming {
  let armed = false
  let timer: unknown
  let pending = false
  const set = (v: boolean) => {
    if (v === armed) return
    armed = v
    onChange(v)
  }
  return {
    visible(isVisible) {
      if (!isVisible) {
        if (pending) timers.clearTimeout(timer)
        pending = false
        set(false)
        return
      }
      if (armed || pending) return
      pending = true
      timer = timers.setTimeout(() => {
        pending = false
        set(true)
      }, delayMs)
    },
    armed: () => armed,
    stop() {
      if (pending) timers.clearTimeout(timer)
      pending = false
      set(false)
    },
  }
}

/** Whether this window's IntersectionObserver reports occlusion (v2: isVisible). */
export function hasVisibilityTracking(win: Window): boolean {
  const w = win as Partial<Pick<typeof globalThis, 'IntersectionObserver' | 'IntersectionObserverEntry'>>
  return typeof w.IntersectionObserver === 'function' && !!w.IntersectionObserverEntry && 'isVisible' in w.IntersectionObserverEntry.prototype
}

/**
 * watchVisibility reports whether target (the view, filling the frame) is
 * visible to the visitor: wholly in the viewport, the tab shown, the frame
 * big enough and, with IntersectionObserver v2, unobscured and opaque. It
 * returns the function that stops watching.
 */
export function watchVisibility(target: Element, win: Window, report: (visible: boolean) => void): () => void {
  const doc = win.document
  const v2 = hasVisibilityTracking(win)
  let seen = false
  const big = () => win.innerWidth >= MIN_FRAME_WIDTH && win.innerHeight >= MIN_FRAME_HEIGHT
  const update = () => report(seen && doc.visibilityState === 'visible' && big())
  let observer: IntersectionObserver | undefined
  const Observer = (win as Partial<Pick<typeof globalThis, 'IntersectionObserver'>>).IntersectionObserver
  if (typeof Observer === 'function') {
    const options = { threshold: [0, 0.5, 0.99, 1], ...(v2 ? { trackVisibility: true, delay: VISIBILITY_DELAY_MS } : {}) } as IntersectionObserverInit
    observer = new Observer((entries: IntersectionObserverEntry[]) => {
      const e = entries[entries.length - 1] as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined
      if (!e) return
      seen = e.isIntersecting && e.intersectionRatio >= 0.99 && (!v2 || e.isVisible === true)
      update()
    }, options)
    observer.observe(target)
  } else {
    // No observer at all (a very old browser): the tab's visibility and the frame's size are all there is.
    seen = true
  }
  doc.addEventListener('visibilitychange', update)
  win.addEventListener('resize', update)
  update()
  return () => {
    observer?.disconnect()
    doc.removeEventListener('visibilitychange', update)
    win.removeEventListener('resize', update)
  }
}
