// The modal controller: open/closed, a loading flag while prefetching before
// opening, and a short shake when a close is refused (spec §4).
import type { EventBus } from '../events'
import { canCloseModal, viewAfterEmbeddedClose, viewOnOpen, type RouteData, type RouterController, type View } from './router'
import { createStore, type SliceFactory, type Store } from '../store'
import { globalTimers, type TimerHandle, type Timers } from '../timers'

/** How long the shake flag stays on (spec §9). */
export const MODAL_SHAKE_MS = 500

/** Modal state. */
export interface ModalState {
  readonly open: boolean
  /** True while prefetching before the modal opens (the connect button shows its loading label). */
  readonly loading: boolean
  /** True for MODAL_SHAKE_MS after a refused close. */
  readonly shake: boolean
}

/** Live facts the modal reads at open/close time. */
export interface ModalContext {
  readonly isConnected: boolean
  readonly hasAdapters: boolean
  readonly isMobile: boolean
  readonly enableNetworkSwitch: boolean
  /** The modal is rendered inline (options.enableEmbedded). */
  readonly enableEmbedded: boolean
  readonly siwxRequired: boolean
  readonly hasSiwxSession: boolean
}

/** Options of open(). */
export interface OpenModalOptions {
  readonly view?: View
  readonly data?: RouteData
}

/** Dependencies of the modal controller. */
export interface ModalControllerOptions {
  readonly router: RouterController
  /** Reads the live facts for the opening and closing rules. */
  context(): ModalContext
  /** Loads what the first view needs (wallet lists, images); failures are logged, the modal opens anyway. */
  prefetch?(): Promise<void>
  readonly events?: EventBus
  readonly timers?: Timers
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<ModalState>
}

/** The modal controller. */
export interface ModalController {
  readonly store: Store<ModalState>
  /** Prefetches (loading), picks the first view by the opening rules and opens. */
  open(options?: OpenModalOptions): Promise<void>
  /** Closes unless the rules forbid it (then it shakes); returns whether it closed. */
  close(): boolean
  /** Sets the shake flag for MODAL_SHAKE_MS. */
  shake(): void
}

/** createModalController makes a closed modal controller. */
export function createModalController(options: ModalControllerOptions): ModalController {
  const { router, events } = options
  const timers = options.timers ?? globalTimers
  const store = (options.slice ?? createStore)({ open: false, loading: false, shake: false })
  let shakeTimer: TimerHandle | undefined
  let opening: Promise<void> | undefined

  const shake = (): void => {
    if (shakeTimer !== undefined) timers.clearTimeout(shakeTimer)
    store.setState({ shake: true })
    shakeTimer = timers.setTimeout(() => {
      shakeTimer = undefined
      store.setState({ shake: false })
    }, MODAL_SHAKE_MS)
  }

  const doOpen = async (openOptions: OpenModalOptions | undefined): Promise<void> => {
    store.setState({ loading: true })
    try {
      await options.prefetch?.()
    } catch (error) {
      console.warn('[latch] prefetch failed; opening anyway', error)
    }
    const ctx = options.context()
    router.reset(viewOnOpen({ ...ctx, requestedView: openOptions?.view }), openOptions?.data)
    store.setState({ open: true, loading: false })
    events?.sendEvent({ type: 'track', event: 'MODAL_OPEN', properties: { connected: ctx.isConnected } })
  }

  return {
    store,
    shake,
    open(openOptions) {
      // A second open while prefetching joins the first rather than prefetching twice.
      opening ??= doOpen(openOptions).finally(() => {
        opening = undefined
      })
      return opening
    },
    close() {
      const ctx = options.context()
      if (!canCloseModal({ ...ctx, view: router.store.getState().view })) {
        shake()
        return false
      }
      const wasOpen = store.getState().open
      store.setState({ open: false, loading: false })
      router.reset(ctx.enableEmbedded ? viewAfterEmbeddedClose(ctx) : 'Connect')
      if (wasOpen) events?.sendEvent({ type: 'track', event: 'MODAL_CLOSE', properties: { connected: ctx.isConnected } })
      return true
    },
  }
}
