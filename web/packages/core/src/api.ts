// Client of latchd's config, explorer and telemetry routes (api-shapes §1, §2;
// README "API"). Every request carries projectId, st and sv; every response is
// validated with zod so a malformed answer fails here, with the route named,
// instead of deep inside a view.
// zod/mini: the same validation with a tree-shakable functional API (a few KiB
// instead of ~15 KiB gzip on every page that shows a connect button).
import { z } from 'zod/mini'
import type { EventProperties, JsonValue } from './events'

/** The sdk type sent as `st` on every request. */
export const LATCH_SDK_TYPE = 'latch'

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

const nullableString = z.nullish(z.string())

/** A wallet of the registry (api-shapes §1.1 WcWallet). */
export const walletSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  badge_type: z.optional(z.enum(['none', 'certified'])),
  description: z.optional(z.string()),
  chains: z.nullish(z.array(z.string())),
  homepage: nullableString,
  image_id: z.optional(z.string()),
  image_url: z.optional(z.string()),
  order: z.nullish(z.number()),
  link_mode: nullableString,
  mobile_link: nullableString,
  desktop_link: nullableString,
  webapp_link: nullableString,
  app_store: nullableString,
  play_store: nullableString,
  chrome_store: nullableString,
  rdns: nullableString,
  injected: z.nullish(z.array(z.object({ namespace: z.optional(z.string()), injected_id: z.optional(z.string()) }))),
  supports_wc: z.optional(z.boolean()),
})
/** A wallet of the registry. */
export type RegistryWallet = z.infer<typeof walletSchema>

const walletsResponseSchema = z.object({ count: z.int().check(z.nonnegative()), data: z.array(walletSchema) })
/** GET /getWallets response. */
export type WalletsPage = z.infer<typeof walletsResponseSchema>

const featureSchema = z.object({ id: z.string(), isEnabled: z.boolean(), config: z.nullable(z.array(z.string())) })
const projectConfigSchema = z.object({ features: z.array(featureSchema) })
/** One feature of GET /appkit/v1/config. */
export type RemoteFeatureConfig = z.infer<typeof featureSchema>
/** GET /appkit/v1/config response (api-shapes §1.3). */
export type ProjectConfig = z.infer<typeof projectConfigSchema>

const originsSchema = z.object({ allowedOrigins: z.array(z.string()) })
const analyticsSchema = z.object({ isAnalyticsEnabled: z.boolean() })

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

type Query = Readonly<Record<string, string | number | undefined>>

function defaultSendBeacon(): ((url: string, body: string) => boolean) | undefined {
  const nav = typeof navigator === 'undefined' ? undefined : navigator
  return typeof nav?.sendBeacon === 'function' ? (url, body) => nav.sendBeacon(url, body) : undefined
}

function joined(list: readonly string[] | undefined): string | undefined {
  return list && list.length > 0 ? list.join(',') : undefined
}

/** createApiClient makes a client of the latchd at options.apiUrl. */
export function createApiClient(options: ApiClientOptions): ApiClient {
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

  const getJson = async <S extends z.ZodMiniType>(path: string, schema: S, query?: Query): Promise<z.infer<S>> => {
    const response = await doFetch(url(path, query), { method: 'GET', headers: { Accept: 'application/json' } })
    if (!response.ok) throw new HttpError(response.status, path)
    let body: unknown
    try {
      body = await response.json()
    } catch {
      throw new ApiResponseError(`GET ${path} answered with a body that is not JSON`)
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
      throw new ApiResponseError(`GET ${path} answered with a malformed body: ${where}: ${issue?.message ?? 'invalid'}`)
    }
    return parsed.data
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
    getWallets: (params) =>
      getJson('/getWallets', walletsResponseSchema, {
        page: params.page,
        entries: params.entries,
        search: params.search?.trim(),
        include: joined(params.include),
        exclude: joined(params.exclude),
        chains: joined(params.chains),
        badge_type: params.badge_type,
      }),
    getProjectConfig: () => getJson('/appkit/v1/config', projectConfigSchema),
    getAllowedOrigins: async () => (await getJson('/projects/v1/origins', originsSchema)).allowedOrigins,
    getAnalyticsConfig: async () => (await getJson('/getAnalyticsConfig', analyticsSchema)).isAnalyticsEnabled,
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
