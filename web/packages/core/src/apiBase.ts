// What every latchd request shares, without the response schemas: the
// query every route takes (projectId, st, sv), the error types, telemetry's
// POSTs and image URLs. The page's first chunk needs only these; the client
// with its zod schemas (api.ts) loads when the first GET is made (lazyApi.ts).
import type { EventProperties, JsonValue } from './events'
import type { ProjectConfig, WalletsPage } from './api'

/** The sdk type sent as `st` on every request. */
export const LATCH_SDK_TYPE = 'latch'

/** The version of Latch (sv of every latchd call). */
export const LATCH_VERSION = '0.1.0'

/** Non-2xx answer: the message is the spec's "HTTP status code: N" (spec §8); status is kept. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    readonly path: string,
  ) {
    super(`HTTP status code: ${status}`)
  }
}

/** A 2xx answer whose body does not have the documented shape. */
export class ApiResponseError extends Error {
  override name = 'ApiResponseError'
}

/** Query of GET /getWallets (api-shapes §1.1); lists are comma-joined on the wire. */
export interface GetWalletsParams {
  /** 1-based page. */
  readonly page: number
  readonly entries: number
  readonly search?: string
  readonly include?: readonly string[]
  readonly exclude?: readonly string[]
  /** Requested CAIP-2 network ids. */
  readonly chains?: readonly string[]
  readonly badge_type?: 'none' | 'certified'
}

/** One event of POST /batch (api-shapes §2 PendingEvent). */
export interface PendingEvent {
  readonly eventId: string
  readonly url: string
  readonly domain: string
  /** ms since epoch. */
  readonly timestamp: number
  readonly props: {
    readonly type: 'track' | 'error'
    readonly event: string
    readonly address?: string
    readonly properties?: EventProperties
    readonly items?: readonly JsonValue[]
  }
}

/** The body of POST /e (api-shapes §2 TelemetryController). */
export interface ErrorReport {
  readonly eventId: string
  readonly url: string
  readonly domain: string
  /** ISO 8601. */
  readonly timestamp: string
  readonly props: {
    readonly type: 'error'
    /** Category, UPPER_SNAKE. */
    readonly event: string
    readonly errorType: string
    readonly errorMessage: string
    readonly stackTrace: string
  }
}

/** Options of createApiClient. */
export interface ApiClientOptions {
  /** latchd base URL, without a trailing slash. */
  readonly apiUrl: string
  /** Omitted from queries when undefined (latchd then answers 401 "Project ID Not Configured"). */
  readonly projectId: string | undefined
  readonly sdkVersion: string
  readonly fetch?: typeof globalThis.fetch
  /** navigator.sendBeacon; default: the browser's when present. */
  readonly sendBeacon?: (url: string, body: string) => boolean
}

/** The latchd client. */
export interface ApiClient {
  getWallets(params: GetWalletsParams): Promise<WalletsPage>
  getProjectConfig(): Promise<ProjectConfig>
  getAllowedOrigins(): Promise<readonly string[]>
  getAnalyticsConfig(): Promise<boolean>
  walletImageUrl(imageId: string): string
  assetImageUrl(imageId: string): string
  /** POSTs a batch to /batch as text/plain (no CORS preflight), by sendBeacon when available. */
  sendEvents(events: readonly PendingEvent[]): Promise<void>
  /** POSTs one error report to /e. */
  sendError(report: ErrorReport): Promise<void>
}

/** Query parameters of a latchd request; undefined and empty values are left out. */
export type Query = Readonly<Record<string, string | number | undefined>>

function defaultSendBeacon(): ((url: string, body: string) => boolean) | undefined {
  const nav = typeof navigator === 'undefined' ? undefined : navigator
  return typeof nav?.sendBeacon === 'function' ? (url, body) => nav.sendBeacon(url, body) : undefined
}

/** joined comma-joins a list for the wire, or leaves it out when empty. */
export function joined(list: readonly string[] | undefined): string | undefined {
  return list && list.length > 0 ? list.join(',') : undefined
}

/** The parts of a latchd client that need no response schema. */
export interface ApiTransport extends Pick<ApiClient, 'walletImageUrl' | 'assetImageUrl' | 'sendEvents' | 'sendError'> {
  /** The URL of a route with the common query (projectId, st, sv) and `query`. */
  url(path: string, query?: Query): string
  /** fetch, the options' or the global one. */
  fetch: typeof globalThis.fetch
}

/** createApiTransport makes the schema-free half of a client of the latchd at options.apiUrl. */
export function createApiTransport(options: ApiClientOptions): ApiTransport {
  const base = options.apiUrl.replace(/\/+$/, '')
  const doFetch: typeof globalThis.fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init)

  const url = (path: string, query: Query = {}): string => {
    const u = new URL(base + path)
    const all: Query = { projectId: options.projectId, st: LATCH_SDK_TYPE, sv: options.sdkVersion, ...query }
    for (const [key, value] of Object.entries(all)) {
      if (value !== undefined && value !== '') u.searchParams.set(key, String(value))
    }
    return u.toString()
  }

  const post = async (path: string, body: string): Promise<void> => {
    const response = await doFetch(url(path), {
      method: 'POST',
      // text/plain keeps the request "simple" (no CORS preflight), as AppKit does.
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      body,
      keepalive: true,
    })
    if (!response.ok) throw new HttpError(response.status, path)
  }

  return {
    url,
    fetch: doFetch,
    walletImageUrl: (imageId) => url(`/getWalletImage/${encodeURIComponent(imageId)}`),
    assetImageUrl: (imageId) => url(`/public/getAssetImage/${encodeURIComponent(imageId)}`),
    async sendEvents(events) {
      if (events.length === 0) return
      const body = JSON.stringify(events)
      const beacon = options.sendBeacon ?? defaultSendBeacon()
      // sendBeacon survives the page being hidden or unloaded; it returns false
      // when the browser refuses to queue the body, and then fetch is the fallback.
      if (beacon?.(url('/batch'), body)) return
      await post('/batch', body)
    },
    sendError: (report) => post('/e', JSON.stringify(report)),
  }
}
