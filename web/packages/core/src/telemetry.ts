// Telemetry to latchd (api-shapes §2, spec §7): events from the bus are
// batched to POST /batch; errors go one by one to POST /e. Telemetry must
// never disturb the page, so every failure here is swallowed.
import type { ApiClient, ErrorReport, PendingEvent } from './api'
import type { EventBus, LatchEventData, LatchEventName } from './events'
import { globalTimers, type TimerHandle, type Timers } from './timers'

/** A non-empty batch is sent at most this long after its first event (api-shapes §2). */
export const TELEMETRY_FLUSH_INTERVAL_MS = 10_000
/** A batch is sent as soon as it passes this size (api-shapes §2: 45 KB). */
export const TELEMETRY_MAX_BATCH_BYTES = 45 * 1024
/** latchd refuses batches of more events than this. */
export const TELEMETRY_MAX_BATCH_EVENTS = 500
/** At most this many error reports per window (spec §7, §9). */
export const ERROR_REPORT_LIMIT = 5
export const ERROR_REPORT_WINDOW_MS = 60_000
/** Sent even when analytics is off (AppKit MANDATORY_EVENTS). */
export const MANDATORY_EVENTS: readonly LatchEventName[] = ['INITIALIZE', 'CONNECT_SUCCESS', 'SOCIAL_LOGIN_SUCCESS']
/** Never sent (spec §7). */
export const UNSENT_EVENTS: readonly LatchEventName[] = ['MODAL_CREATED']

/** The page an event happened on. */
export interface PageInfo {
  readonly url: string
  readonly domain: string
}

/** Dependencies of the telemetry batcher. */
export interface TelemetryOptions {
  readonly api: Pick<ApiClient, 'sendEvents' | 'sendError'>
  readonly bus: EventBus
  /** features.analytics after GET /getAnalyticsConfig; read on every event. */
  isAnalyticsEnabled(): boolean
  readonly timers?: Timers
  readonly now?: () => number
  readonly randomUUID?: () => string
  /** Default: location.href / location.hostname ('' in SSR). */
  readonly page?: () => PageInfo
  /** Registers a callback for "the page was hidden"; default: document visibilitychange. Returns an unsubscribe. */
  readonly onHidden?: (callback: () => void) => () => void
}

/** The telemetry batcher. */
export interface Telemetry {
  /** Sends the pending batch now. */
  flush(): Promise<void>
  /** Reports an error to POST /e (analytics on, at most 5 per 60 s); returns whether it was sent. */
  reportError(error: unknown, category: string): Promise<boolean>
  /** Number of events waiting. */
  pending(): number
  /** Stops listening; pending events are flushed. */
  stop(): Promise<void>
}

function defaultPage(): PageInfo {
  return typeof location === 'undefined' ? { url: '', domain: '' } : { url: location.href, domain: location.hostname }
}

function defaultUUID(): string {
  const c = globalThis.crypto
  if (typeof c?.randomUUID === 'function') return c.randomUUID()
  // RFC 4122 v4 from getRandomValues, for older browsers without randomUUID.
  const bytes = new Uint8Array(16)
  c.getRandomValues(bytes)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function defaultOnHidden(callback: () => void): () => void {
  if (typeof document === 'undefined') return () => {}
  const listener = (): void => {
    if (document.visibilityState === 'hidden') callback()
  }
  document.addEventListener('visibilitychange', listener)
  return () => document.removeEventListener('visibilitychange', listener)
}

/** shouldSend: MODAL_CREATED never; mandatory events always; the rest only with analytics on. */
export function shouldSendEvent(event: LatchEventName, analyticsEnabled: boolean): boolean {
  if (UNSENT_EVENTS.includes(event)) return false
  return analyticsEnabled || MANDATORY_EVENTS.includes(event)
}

/** createTelemetry subscribes to the bus and batches events to latchd. */
export function createTelemetry(options: TelemetryOptions): Telemetry {
  const timers = options.timers ?? globalTimers
  const now = options.now ?? Date.now
  const uuid = options.randomUUID ?? defaultUUID
  const page = options.page ?? defaultPage
  let queue: PendingEvent[] = []
  let queuedBytes = 0
  let timer: TimerHandle | undefined
  const errorTimes: number[] = []

  const flush = async (): Promise<void> => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
    if (queue.length === 0) return
    const batch = queue
    queue = []
    queuedBytes = 0
    try {
      await options.api.sendEvents(batch)
    } catch {
      // Dropped on purpose: retrying would grow without bound on a page that is offline.
    }
  }

  const enqueue = (event: LatchEventData, timestamp: number): void => {
    if (!shouldSendEvent(event.event, options.isAnalyticsEnabled())) return
    const { url, domain } = page()
    const pending: PendingEvent = {
      eventId: uuid(),
      url,
      domain,
      timestamp,
      props: {
        type: event.type,
        event: event.event,
        ...(event.address ? { address: event.address } : {}),
        ...(event.properties ? { properties: event.properties } : {}),
      },
    }
    queue.push(pending)
    queuedBytes += JSON.stringify(pending).length + 1
    if (queuedBytes >= TELEMETRY_MAX_BATCH_BYTES || queue.length >= TELEMETRY_MAX_BATCH_EVENTS) {
      void flush()
    } else if (timer === undefined) {
      timer = timers.setTimeout(() => {
        timer = undefined
        void flush()
      }, TELEMETRY_FLUSH_INTERVAL_MS)
    }
  }

  const unsubscribeBus = options.bus.subscribeEvents(enqueue)
  const unsubscribeHidden = (options.onHidden ?? defaultOnHidden)(() => void flush())

  return {
    flush,
    pending: () => queue.length,
    async reportError(error, category) {
      if (!options.isAnalyticsEnabled()) return false
      const at = now()
      while (errorTimes.length > 0 && (errorTimes[0] ?? 0) <= at - ERROR_REPORT_WINDOW_MS) errorTimes.shift()
      if (errorTimes.length >= ERROR_REPORT_LIMIT) return false
      errorTimes.push(at)
      const { url, domain } = page()
      const e = error instanceof Error ? error : new Error(String(error))
      const report: ErrorReport = {
        eventId: uuid(),
        url,
        domain,
        timestamp: new Date(at).toISOString(),
        props: { type: 'error', event: category, errorType: e.name, errorMessage: e.message, stackTrace: e.stack ?? '' },
      }
      try {
        await options.api.sendError(report)
        return true
      } catch {
        return false
      }
    },
    async stop() {
      unsubscribeBus()
      unsubscribeHidden()
      await flush()
    },
  }
}
