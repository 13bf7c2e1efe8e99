// The public event bus: what `subscribeEvents`/`useLatchEvents` expose, and
// what telemetry batches. Event names are AppKit's (`Event` union in its
// TypeUtil.ts) so a latchd summary reads the same for both widgets.
import { createStore, type SliceFactory, type Store } from './store'

/** Event names emitted so far. */
export const EVENT_NAMES = [
  'MODAL_CREATED',
  'MODAL_LOADED',
  'MODAL_OPEN',
  'MODAL_CLOSE',
  'INITIALIZE',
  'CLICK_ALL_WALLETS',
  'CLICK_NETWORKS',
  'CLICK_WALLET_HELP',
  'CLICK_GET_WALLET',
  'SEARCH_WALLET',
  'SELECT_WALLET',
  'WALLET_IMPRESSION',
  'CONNECT_SUCCESS',
  'CONNECT_ERROR',
  'DISCONNECT_SUCCESS',
  'DISCONNECT_ERROR',
  'SWITCH_NETWORK',
  'SET_PREFERRED_ACCOUNT_TYPE',
  'CLICK_SIGN_SIWX_MESSAGE',
  'CLICK_CANCEL_SIWX',
  'SIWX_AUTH_SUCCESS',
  'SIWX_AUTH_ERROR',
  'EMAIL_LOGIN_SELECTED',
  'EMAIL_SUBMITTED',
  'EMAIL_VERIFICATION_CODE_SENT',
  'EMAIL_VERIFICATION_CODE_PASS',
  'EMAIL_VERIFICATION_CODE_FAIL',
  'SOCIAL_LOGIN_STARTED',
  'SOCIAL_LOGIN_SUCCESS',
  'SOCIAL_LOGIN_ERROR',
  'SOCIAL_LOGIN_CANCELED',
  'ERROR_FETCH_TRANSACTIONS',
  'LOAD_MORE_TRANSACTIONS',
] as const

/** An event name. */
export type LatchEventName = (typeof EVENT_NAMES)[number]

/** A JSON value, the only thing event properties may hold (they are sent to latchd). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** Event properties. */
export type EventProperties = Readonly<Record<string, JsonValue>>

/** An event: a user action ('track') or a failure ('error'). */
export interface LatchEventData {
  readonly type: 'track' | 'error'
  readonly event: LatchEventName
  /** The connected address, when there is one. */
  readonly address?: string
  readonly properties?: EventProperties
}

/** The bus's public state: the latest event and when it happened (AppKit's EventsController state). */
export interface EventsState {
  readonly timestamp: number
  readonly data: LatchEventData | undefined
}

/** Called with every event and its timestamp (ms since epoch). */
export type EventListener = (event: LatchEventData, timestamp: number) => void

/** The event bus. */
export interface EventBus {
  /** The latest event, as a store (for useSyncExternalStore). */
  readonly store: Store<EventsState>
  /** Publishes an event to every subscriber. */
  sendEvent(event: LatchEventData): void
  /** Subscribes to every future event; returns an unsubscribe function. */
  subscribeEvents(listener: EventListener): () => void
}

/** createEventBus makes an event bus; `now` is injectable for tests. */
export function createEventBus(now: () => number = Date.now, slice: SliceFactory<EventsState> = createStore): EventBus {
  const store = slice({ timestamp: 0, data: undefined })
  const listeners = new Set<EventListener>()
  return {
    store,
    sendEvent(event) {
      const timestamp = now()
      store.setState({ timestamp, data: event })
      for (const listener of [...listeners]) {
        // One failing subscriber (app code) must not stop the others or the widget.
        try {
          listener(event, timestamp)
        } catch (error) {
          console.error('[latch] event listener failed', error)
        }
      }
    },
    subscribeEvents(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}
