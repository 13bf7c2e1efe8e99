// Client of latchd's config, explorer and telemetry routes (api-shapes §1, §2;
// README "API"). Every request carries projectId, st and sv; every response is
// validated with zod so a malformed answer fails here, with the route named,
// instead of deep inside a view.
// zod/mini: the same validation with a tree-shakable functional API (a few KiB
// instead of ~15 KiB gzip on every page that shows a connect button).
import { z } from 'zod/mini'
import { ApiResponseError, createApiTransport, HttpError, joined, type ApiClient, type ApiClientOptions, type Query } from './apiBase'

// The schema-free half lives in apiBase.ts (the page's first chunk needs only it); named here too.
export { ApiResponseError, HttpError, LATCH_SDK_TYPE } from './apiBase'
export type { ApiClient, ApiClientOptions, ErrorReport, GetWalletsParams, PendingEvent } from './apiBase'

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

export const walletsResponseSchema = z.object({ count: z.int().check(z.nonnegative()), data: z.array(walletSchema) })
/** GET /getWallets response. */
export type WalletsPage = z.infer<typeof walletsResponseSchema>

export const featureSchema = z.object({ id: z.string(), isEnabled: z.boolean(), config: z.nullable(z.array(z.string())) })
export const projectConfigSchema = z.object({ features: z.array(featureSchema) })
/** One feature of GET /appkit/v1/config. */
export type RemoteFeatureConfig = z.infer<typeof featureSchema>
/** GET /appkit/v1/config response (api-shapes §1.3). */
export type ProjectConfig = z.infer<typeof projectConfigSchema>

export const originsSchema = z.object({ allowedOrigins: z.array(z.string()) })
export const analyticsSchema = z.object({ isAnalyticsEnabled: z.boolean() })

/** createApiClient makes a client of the latchd at options.apiUrl. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = createApiTransport(options)
  const { url } = transport

  const getJson = async <S extends z.ZodMiniType>(path: string, schema: S, query?: Query): Promise<z.infer<S>> => {
    const response = await transport.fetch(url(path, query), { method: 'GET', headers: { Accept: 'application/json' } })
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
    walletImageUrl: transport.walletImageUrl,
    assetImageUrl: transport.assetImageUrl,
    sendEvents: transport.sendEvents,
    sendError: transport.sendError,
  }
}
