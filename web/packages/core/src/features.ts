// Remote features: latchd's project config (GET /appkit/v1/config) decides
// email, socials, swaps, on-ramp, activity and the other dashboard flags;
// local options are the fallback. The mapping is api-shapes §1.3 (AppKit's
// ConfigUtil), plus the origin check of §1.5 and the project-id alert of spec §5.
import type { AlertController } from './alerts'
import type { ProjectConfig, RemoteFeatureConfig } from './api'
import { HttpError, type ApiClient } from './apiBase'
import { DEFAULT_SOCIALS, REMOTE_MANAGED_FEATURES, SOCIAL_PROVIDERS, type Features, type SocialProvider } from './options'

/** Features decided by the project's remote config (spec §3 "Remote feature flags"). */
export interface RemoteFeatures {
  readonly email: boolean
  readonly socials: readonly SocialProvider[] | false
  readonly swaps: readonly string[] | false
  readonly onramp: readonly string[] | false
  readonly activity: boolean
  readonly branding: boolean
  /**
   * Latch additions: latchd also reports `send` and `receive`. They are
   * undefined when the server does not send them (then the local option applies).
   */
  readonly send?: boolean
  readonly receive?: boolean
}

/** Used when the config cannot be fetched and no local option is set (AppKit DEFAULT_REMOTE_FEATURES). */
export const DEFAULT_REMOTE_FEATURES: RemoteFeatures = {
  email: true,
  socials: DEFAULT_SOCIALS,
  swaps: ['1inch'],
  onramp: ['meld'],
  activity: true,
  branding: true,
}

/** Origins always allowed besides the project's own (api-shapes §1.5 DEFAULT_ALLOWED_ANCESTORS). */
export const DEFAULT_ALLOWED_ANCESTORS: readonly string[] = [
  'http://localhost:*',
  'https://localhost:*',
  'http://127.0.0.1:*',
  'https://127.0.0.1:*',
  'https://*.pages.dev',
  'https://*.vercel.app',
  'https://*.ngrok-free.app',
  'https://secure-mobile.walletconnect.com',
  'https://secure-mobile.walletconnect.org',
]

type FeatureKey = Exclude<keyof RemoteFeatures, 'send' | 'receive'>

/** fallbackRemoteFeatures: each remote feature from its local option, else its default (fetch failed). */
export function fallbackRemoteFeatures(local: Features = {}): RemoteFeatures {
  return { ...DEFAULT_REMOTE_FEATURES, ...Object.fromEntries(FEATURE_KEYS.map((key) => [key, fallbackOf(key, local)])) }
}

const FEATURE_KEYS: readonly FeatureKey[] = Object.keys(DEFAULT_REMOTE_FEATURES) as FeatureKey[]

function fallbackOf<K extends FeatureKey>(key: K, local: Features): RemoteFeatures[K]
function fallbackOf(key: FeatureKey, local: Features): RemoteFeatures[FeatureKey] {
  const d = DEFAULT_REMOTE_FEATURES
  switch (key) {
    case 'email':
      return local.email ?? d.email
    case 'socials':
      return local.socials === undefined ? d.socials : local.socials
    case 'swaps':
      // A boolean local option means "the default providers" or "off".
      return local.swaps === undefined || local.swaps ? d.swaps : false
    case 'onramp':
      return local.onramp === undefined || local.onramp ? d.onramp : false
    case 'activity':
      return local.history ?? d.activity
    default:
      return d[key]
  }
}

function listOrFalse(f: RemoteFeatureConfig, config: readonly string[]): readonly string[] | false {
  return f.isEnabled && config.length > 0 ? config : false
}

/**
 * mapRemoteFeatures turns GET /appkit/v1/config into RemoteFeatures exactly as
 * api-shapes §1.3 says: a feature missing from the list is off; a feature
 * whose config is null takes the local option (or its default).
 */
export function mapRemoteFeatures(config: ProjectConfig, local: Features = {}): RemoteFeatures {
  const byId = new Map(config.features.map((f) => [f.id, f]))
  const fallback = fallbackRemoteFeatures(local)
  const pick = <K extends FeatureKey>(key: K, id: string, map: (f: RemoteFeatureConfig, config: readonly string[]) => RemoteFeatures[K]): RemoteFeatures[K] => {
    const f = byId.get(id)
    // Missing from the list means off (every remote feature accepts false).
    if (!f) return false as RemoteFeatures[K]
    if (f.config === null) return fallback[key]
    return map(f, f.config)
  }
  const socials = (f: RemoteFeatureConfig, c: readonly string[]): readonly SocialProvider[] | false => {
    const providers = c.filter((p): p is SocialProvider => SOCIAL_PROVIDERS.includes(p as SocialProvider))
    return f.isEnabled && c.length > 0 ? providers : false
  }
  const remote: RemoteFeatures = {
    email: pick('email', 'social_login', (f, c) => f.isEnabled && c.includes('email')),
    socials: pick('socials', 'social_login', socials),
    swaps: pick('swaps', 'swap', listOrFalse),
    onramp: pick('onramp', 'onramp', listOrFalse),
    activity: pick('activity', 'activity', (f) => f.isEnabled),
    branding: pick('branding', 'reown_branding', (f) => f.isEnabled),
  }
  const send = byId.get('send')
  const receive = byId.get('receive')
  return {
    ...remote,
    ...(send ? { send: send.isEnabled } : {}),
    ...(receive ? { receive: receive.isEnabled } : {}),
  }
}

/** What loadRemoteFeatures needs. */
export interface ProjectConfigContext {
  readonly api: Pick<ApiClient, 'getProjectConfig' | 'getAllowedOrigins'>
  readonly projectId: string | undefined
  /** The app's features exactly as given (ResolvedOptions.localFeatures). */
  readonly localFeatures: Features | undefined
  readonly alerts: Pick<AlertController, 'show'>
  /** Where a failed fetch is reported; default console.warn. */
  readonly warn?: (message: string, error: unknown) => void
}

/**
 * loadRemoteFeatures fetches the project config and maps it. Without a
 * projectId it raises PROJECT_ID_NOT_CONFIGURED and uses the local options; a
 * failed fetch warns and uses them too; a successful fetch that overrides
 * local remote-managed options raises LOCAL_CONFIGURATION_IGNORED.
 */
export async function loadRemoteFeatures(ctx: ProjectConfigContext): Promise<RemoteFeatures> {
  const local = ctx.localFeatures ?? {}
  if (!ctx.projectId) {
    ctx.alerts.show('PROJECT_ID_NOT_CONFIGURED')
    return fallbackRemoteFeatures(local)
  }
  let config: ProjectConfig
  try {
    config = await ctx.api.getProjectConfig()
  } catch (error) {
    const warn = ctx.warn ?? ((message: string, e: unknown) => console.warn(message, e))
    warn('[latch] Could not fetch the project configuration; using local features.', error)
    return fallbackRemoteFeatures(local)
  }
  const ignored = REMOTE_MANAGED_FEATURES.filter((key) => local[key] !== undefined)
  if (ignored.length > 0) ctx.alerts.show('LOCAL_CONFIGURATION_IGNORED', { features: ignored.join(', ') })
  return mapRemoteFeatures(config, local)
}

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  // `*` stands for one host label run or a port, never a path or a scheme.
  return new RegExp(`^${escaped.replace(/\*/g, '[A-Za-z0-9.-]+')}$`)
}

/** isOriginAllowed matches origin against exact origins and `*` patterns. */
export function isOriginAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => (pattern.includes('*') ? patternToRegExp(pattern).test(origin) : pattern === origin))
}

/** Outcome of the origin check. */
export type OriginCheck = 'allowed' | 'not-allowed' | 'rate-limited' | 'server-error' | 'skipped'

/**
 * checkAllowedOrigins matches the page origin against the project's allowed
 * origins plus DEFAULT_ALLOWED_ANCESTORS (api-shapes §1.5). It only alerts,
 * never blocks: ORIGIN_NOT_ALLOWED, RATE_LIMITED on 429, SERVER_ERROR on 5xx;
 * any other failure counts as an empty list.
 */
export async function checkAllowedOrigins(ctx: {
  readonly api: Pick<ApiClient, 'getAllowedOrigins'>
  readonly alerts: Pick<AlertController, 'show'>
  /** The page origin; default location.origin (none in SSR: the check is skipped). */
  readonly origin?: string
}): Promise<OriginCheck> {
  const origin = ctx.origin ?? (typeof location === 'undefined' ? undefined : location.origin)
  if (!origin) return 'skipped'
  let allowed: readonly string[]
  try {
    allowed = await ctx.api.getAllowedOrigins()
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) {
      ctx.alerts.show('RATE_LIMITED')
      return 'rate-limited'
    }
    if (error instanceof HttpError && error.status >= 500) {
      ctx.alerts.show('SERVER_ERROR')
      return 'server-error'
    }
    allowed = []
  }
  if (isOriginAllowed(origin, [...allowed, ...DEFAULT_ALLOWED_ANCESTORS])) return 'allowed'
  ctx.alerts.show('ORIGIN_NOT_ALLOWED', { origin })
  return 'not-allowed'
}

/** fetchAnalyticsEnabled reads GET /getAnalyticsConfig; any failure means off (spec §7). */
export async function fetchAnalyticsEnabled(api: Pick<ApiClient, 'getAnalyticsConfig'>): Promise<boolean> {
  try {
    return await api.getAnalyticsConfig()
  } catch {
    return false
  }
}

/**
 * initProjectConfig runs the startup checks: remote features, then the origin
 * check, which AppKit runs only when e-mail or social login is on (the embedded
 * wallet is what the allowlist protects).
 */
export async function initProjectConfig(ctx: ProjectConfigContext & { readonly origin?: string }): Promise<RemoteFeatures> {
  const features = await loadRemoteFeatures(ctx)
  if (ctx.projectId && (features.email || features.socials)) await checkAllowedOrigins(ctx)
  return features
}
