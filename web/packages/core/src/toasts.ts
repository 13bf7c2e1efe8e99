// Toast ("snackbar") controller: one short message at a time, variants
// success, error and loading (spec §3 Toast).
import { createStore, type SliceFactory, type Store } from './store'
import { globalTimers, type TimerHandle, type Timers } from './timers'

/** Delay between closing an open toast and showing its replacement (spec §4, §9). */
export const TOAST_REPLACE_DELAY_MS = 150
/** How long an auto-closing toast stays up (AppKit's snackbar; not in the spec). */
export const TOAST_AUTO_CLOSE_MS = 2500

/** Toast variants. */
export type ToastVariant = 'success' | 'error' | 'loading'

/** Toast state. */
export interface ToastState {
  readonly open: boolean
  readonly message: string
  readonly variant: ToastVariant
  /** An optional icon (inline SVG markup or an icon name) drawn before the message. */
  readonly svg: string | undefined
  readonly autoClose: boolean
  /** A link shown after the message, e.g. a sent transaction on the block explorer. */
  readonly link: ToastLink | undefined
}

/** A link in a toast. */
export interface ToastLink {
  readonly url: string
  readonly label: string
}

/** Options of one toast. */
export interface ToastOptions {
  readonly svg?: string
  /** Close after TOAST_AUTO_CLOSE_MS; default true, except for loading toasts. */
  readonly autoClose?: boolean
  readonly link?: ToastLink
}

/** The toast controller. */
export interface ToastController {
  readonly store: Store<ToastState>
  showSuccess(message: string, options?: ToastOptions): void
  showError(message: string, options?: ToastOptions): void
  showLoading(message: string, options?: ToastOptions): void
  /** Closes the toast (and drops a replacement waiting to show). */
  hide(): void
}

/** createToastController makes a hidden toast; timers are injectable for tests. */
export function createToastController(timers: Timers = globalTimers, slice: SliceFactory<ToastState> = createStore): ToastController {
  const store = slice({ open: false, message: '', variant: 'success', svg: undefined, autoClose: true, link: undefined })
  let replaceTimer: TimerHandle | undefined
  let closeTimer: TimerHandle | undefined

  const clearTimers = (): void => {
    if (replaceTimer !== undefined) timers.clearTimeout(replaceTimer)
    if (closeTimer !== undefined) timers.clearTimeout(closeTimer)
    replaceTimer = undefined
    closeTimer = undefined
  }

  const display = (next: ToastState): void => {
    store.setState(next)
    if (next.autoClose) {
      closeTimer = timers.setTimeout(() => {
        closeTimer = undefined
        store.setState({ open: false })
      }, TOAST_AUTO_CLOSE_MS)
    }
  }

  const show = (variant: ToastVariant, message: string, options: ToastOptions = {}): void => {
    const next: ToastState = {
      open: true,
      message,
      variant,
      svg: options.svg,
      autoClose: options.autoClose ?? variant !== 'loading',
      link: options.link,
    }
    const wasOpen = store.getState().open
    clearTimers()
    if (!wasOpen) {
      display(next)
      return
    }
    // Spec §4: close the open toast first, then show the new one after 150 ms,
    // so the exit and enter animations do not overlap.
    store.setState({ open: false })
    replaceTimer = timers.setTimeout(() => {
      replaceTimer = undefined
      display(next)
    }, TOAST_REPLACE_DELAY_MS)
  }

  return {
    store,
    showSuccess: (message, options) => show('success', message, options),
    showError: (message, options) => show('error', message, options),
    showLoading: (message, options) => show('loading', message, options),
    hide() {
      clearTimers()
      store.setState({ open: false })
    },
  }
}
