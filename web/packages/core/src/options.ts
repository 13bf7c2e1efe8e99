// LatchOptions: what an app passes to createLatch, validated once and filled
// with the defaults of spec §9. Invalid options throw at construction with a
// message naming the option, so a misconfiguration never half-applies.
import type { Config as WagmiConfig } from '@wagmi/core'
import type { Chain } from 'viem'
import type { SIWXConfig } from './siwx'
import type { WalletConnectOptions } from './walletconnect/options.js'
import { assertLocale, type LatchLocale } from './i18n/locale'
import { assertThemeMode, themeToCssVars, type ThemeMode, type ThemeVariables } from './theme'

/** latchd's address when the app gives none (`latchd dev` listens here). */
export const DEFAULT_API_URL = 'http://127.0.0.1:8080'

/** Social login providers (spec §5). Farcaster is offered through its own flow. */
export const SOCIAL_PROVIDERS = ['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook'] as const
/** A social login provider. */
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number]

/** Wallet-list sections (spec §9 connector order). */
export const CONNECTOR_TYPES = ['walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended'] as const
/** A wallet-list section. */
export type ConnectorTypeOrder = (typeof CONNECTOR_TYPES)[number]

/** Ways to connect on the Connect view. */
export const CONNECT_METHODS = ['email', 'social', 'wallet'] as const
/** A way to connect. */
export type ConnectMethod = (typeof CONNECT_METHODS)[number]

/** Account-view actions. */
export const WALLET_FEATURES = ['onramp', 'swaps', 'receive', 'send'] as const
/** An account-view action. */
export type WalletFeature = (typeof WALLET_FEATURES)[number]

/** The "All wallets" button: always, never, or on mobile only. */
export type AllWalletsMode = 'SHOW' | 'HIDE' | 'ONLY_MOBILE'

/**
 * Local feature flags (appkit-public-api `features`). email, socials, swaps,
 * onramp and history are remote features: latchd's project config wins over
 * them when it can be fetched (api-shapes §1.3).
 */
export interface Features {
  readonly receive?: boolean
  readonly send?: boolean
  /** With e-mail or social login shown, false puts the wallets behind one "Continue with a wallet" row. */
  readonly emailShowWallets?: boolean
  readonly analytics?: boolean
  /** false hides the "All wallets" row, as `allWallets: 'HIDE'`. */
  readonly allWallets?: boolean
  /** Wallet rows stay disabled until the visitor ticks the terms checkbox (needs a legal URL). */
  readonly legalCheckbox?: boolean
  /** Like emailShowWallets false: the wallet list collapses to one row under e-mail and social login. */
  readonly collapseWallets?: boolean
  readonly connectorTypeOrder?: readonly ConnectorTypeOrder[]
  readonly connectMethodsOrder?: readonly ConnectMethod[]
  /** The Account view's actions, in this order. */
  readonly walletFeaturesOrder?: readonly WalletFeature[]
  // Remote-managed:
  readonly email?: boolean
  readonly socials?: readonly SocialProvider[] | false
  readonly swaps?: boolean
  readonly onramp?: boolean
  readonly history?: boolean
}

/** AppKit features Latch does not take: passing one throws (unsupportedFeatureMessage). */
export const UNSUPPORTED_FEATURES = ['smartSessions', 'pay', 'branding', 'authentication', 'headless'] as const

/** Why `features.<name>` is refused: not built yet, or (headless) not needed. */
function unsupportedFeatureMessage(name: (typeof UNSUPPORTED_FEATURES)[number]): string {
  if (name === 'headless') return '`features.headless` is not needed: the headless hooks (useLatchWallets, useLatchWallet) always work; remove it'
  return `\`features.${name}\` is not supported yet`
}

/** The keys of Features whose value latchd's project config decides. */
export const REMOTE_MANAGED_FEATURES = ['email', 'socials', 'swaps', 'onramp', 'history'] as const

/** Local feature defaults (spec §9). */
export const DEFAULT_FEATURES = {
  receive: true,
  send: true,
  emailShowWallets: true,
  analytics: true,
  allWallets: true,
  legalCheckbox: false,
  collapseWallets: false,
  connectorTypeOrder: CONNECTOR_TYPES,
  connectMethodsOrder: CONNECT_METHODS,
  walletFeaturesOrder: WALLET_FEATURES,
} as const

/** Features after defaults: every key of DEFAULT_FEATURES is set. */
export type ResolvedFeatures = Features & Required<Pick<Features, keyof typeof DEFAULT_FEATURES>>

/** The default social providers, in order (spec §9). */
export const DEFAULT_SOCIALS: readonly SocialProvider[] = SOCIAL_PROVIDERS

/** The dapp's metadata, sent to wallets with connection requests. */
export interface AppMetadata {
  readonly name: string
  readonly description: string
  readonly url: string
  readonly icons: readonly string[]
}

/** A wallet the app adds to the list itself (appkit-public-api `customWallets`). */
export interface CustomWallet {
  readonly id: string
  readonly name: string
  readonly homepage?: string
  readonly image_url?: string
  readonly mobile_link?: string
  readonly desktop_link?: string
  readonly webapp_link?: string
  readonly app_store?: string
  readonly play_store?: string
}

/** A token shown instead of the native balance (appkit-public-api `tokens`): its contract (EVM) or mint (Solana) address. */
export interface TokenOption {
  readonly address: string
}

/** What an app passes to createLatch. */
export interface LatchOptions {
  /** The project id on latchd; missing → PROJECT_ID_NOT_CONFIGURED alert (spec §5). */
  readonly projectId?: string
  /** Networks the app supports; at least one. */
  readonly networks: readonly [Chain, ...Chain[]] | readonly Chain[]
  /** Selected before connecting; must be one of networks (default: the first). */
  readonly defaultNetwork?: Chain
  readonly metadata?: AppMetadata
  /** Base URL of latchd (default DEFAULT_API_URL). */
  readonly apiUrl?: string
  readonly themeMode?: ThemeMode
  readonly themeVariables?: ThemeVariables
  /**
   * The widget's language, one of SUPPORTED_LOCALES (default: the first of the visitor's `navigator.languages` that
   * Latch ships, else English). A server-rendered page renders English until the browser has mounted, unless it
   * awaited loadLocale(locale) on both sides first.
   */
  readonly locale?: LatchLocale
  readonly features?: Features
  readonly featuredWalletIds?: readonly string[]
  readonly includeWalletIds?: readonly string[]
  readonly excludeWalletIds?: readonly string[]
  readonly customWallets?: readonly CustomWallet[]
  readonly allWallets?: AllWalletsMode
  /** Let the wallet stay on a network not in `networks` (default false). */
  readonly allowUnsupportedChain?: boolean
  /** Allow switching networks in the modal (default true). */
  readonly enableNetworkSwitch?: boolean
  /** Render the modal inline instead of as an overlay (default false). */
  readonly enableEmbedded?: boolean
  /** Show configuration alerts in the UI (default true). */
  readonly debug?: boolean
  /** Restore the previous connection on load (default true). */
  readonly enableReconnect?: boolean
  readonly termsConditionsUrl?: string
  readonly privacyPolicyUrl?: string
  readonly siwx?: SIWXConfig
  /** The app's own wagmi config; default: one Latch creates with EIP-6963 discovery. */
  readonly wagmiConfig?: WagmiConfig
  /**
   * WalletConnect (QR code and mobile deep links) through latchd's relay; `false` leaves it out.
   * Needs `projectId` and @latchkit/react's createLatch (which brings the connector); with your own
   * `wagmiConfig`, add @latchkit/react's `walletConnect()` connector to it instead.
   */
  readonly walletConnect?: WalletConnectOptions | false
  /**
   * Base URL of latchd's frame origin (its `--frame-url`, or `http://<frame-addr>`): with a `projectId` and
   * `features.email` not false, the Connect view offers the e-mail wallet, whose keys live in a hidden frame there.
   */
  readonly frameUrl?: string
  /**
   * The embedded wallet's account type per namespace when the visitor has chosen none (spec §3): eip155
   * `smartAccount` (default) or `eoa`; solana is always `eoa`.
   */
  readonly defaultAccountTypes?: { readonly eip155?: 'eoa' | 'smartAccount'; readonly solana?: 'eoa' }
  /**
   * Per network (CAIP-2 id, e.g. `eip155:1`), a token whose balance the account button shows there instead of the
   * native one (`{ 'eip155:1': { address: '0x…' } }`).
   */
  readonly tokens?: Readonly<Record<string, TokenOption>>
  /**
   * The app's own network icons, by chain id (`{ 1: '/icons/eth.svg' }`) or CAIP-2 id (`eip155:1`, `solana:5eykt4Us…`,
   * or the part after the colon): they replace latchd's. Absolute http(s), page-relative or `data:image/` URLs.
   */
  readonly chainImages?: Readonly<Record<number | string, string>>
  /**
   * The app's own wallet icons, by wallet id (the registry's, a custom wallet's), connector id or rdns
   * (`io.metamask`): they replace latchd's and the one an extension announces. URLs as for chainImages.
   */
  readonly connectorImages?: Readonly<Record<string, string>>
}

/** Options after validation, with every default filled in. */
export interface ResolvedOptions {
  readonly projectId: string | undefined
  readonly networks: readonly Chain[]
  readonly defaultNetwork: Chain
  readonly metadata: AppMetadata | undefined
  readonly apiUrl: string
  readonly themeMode: ThemeMode | undefined
  readonly themeVariables: ThemeVariables
  /** The app's locale; undefined → the visitor's languages decide at init. */
  readonly locale: LatchLocale | undefined
  /** The app's features exactly as given (needed for the LOCAL_CONFIGURATION_IGNORED check). */
  readonly localFeatures: Features | undefined
  /** Local features merged over DEFAULT_FEATURES. */
  readonly features: ResolvedFeatures
  readonly featuredWalletIds: readonly string[]
  readonly includeWalletIds: readonly string[]
  readonly excludeWalletIds: readonly string[]
  readonly customWallets: readonly CustomWallet[]
  readonly allWallets: AllWalletsMode
  readonly allowUnsupportedChain: boolean
  readonly enableNetworkSwitch: boolean
  readonly enableEmbedded: boolean
  readonly debug: boolean
  readonly enableReconnect: boolean
  readonly termsConditionsUrl: string | undefined
  readonly privacyPolicyUrl: string | undefined
  readonly siwx: SIWXConfig | undefined
  /** The frame origin's URL without a trailing slash, when given. */
  readonly frameUrl: string | undefined
  /** The account button's token per CAIP-2 network id (empty: native balances everywhere). */
  readonly tokens: Readonly<Record<string, TokenOption>>
  /** Network icon URLs by chain id or CAIP-2 id (empty: latchd's). */
  readonly chainImages: Readonly<Record<string, string>>
  /** Wallet icon URLs by wallet id, connector id or rdns (empty: latchd's or the extension's). */
  readonly connectorImages: Readonly<Record<string, string>>
}

/** The tokens option: CAIP-2 keys (`eip155:<chain id>`, `solana:<genesis hash>`), each with an address of its namespace. */
function tokenList(value: LatchOptions['tokens'] = {}): Readonly<Record<string, TokenOption>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('`tokens` must be an object keyed by CAIP-2 network id')
  for (const [network, token] of Object.entries(value)) {
    const evm = /^eip155:[1-9]\d*$/.test(network)
    if (!evm && !/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/.test(network)) fail(`\`tokens\` key "${network}" is not a CAIP-2 network id`)
    if (!(evm ? /^0x[\da-fA-F]{40}$/ : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/).test(token?.address)) {
      fail(`\`tokens["${network}"].address\` is not a ${evm ? 'contract' : 'mint'} address`)
    }
  }
  return value
}

/** Thrown for invalid options; the message names the option. */
export class LatchOptionsError extends Error {
  override name = 'LatchOptionsError'
}

function fail(message: string): never {
  throw new LatchOptionsError(message)
}

function idList(name: string, value: readonly string[] | undefined): readonly string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || id.trim() === '')) {
    fail(`\`${name}\` must be a list of non-empty wallet ids`)
  }
  return [...new Set(value)]
}

function orderList<T extends string>(name: string, value: readonly T[] | undefined, allowed: readonly T[]): readonly T[] {
  if (value === undefined) return allowed
  if (!Array.isArray(value)) fail(`\`features.${name}\` must be a list`)
  for (const item of value) {
    if (!allowed.includes(item)) fail(`\`features.${name}\` holds "${String(item)}"; allowed: ${allowed.join(', ')}`)
  }
  if (new Set(value).size !== value.length) fail(`\`features.${name}\` lists an entry twice`)
  return value
}

function httpUrl(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return fail(`\`${name}\` must be an absolute URL, not ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`\`${name}\` must be an http(s) URL, not ${JSON.stringify(value)}`)
  return value
}

function validateFeatures(features: Features | undefined): void {
  if (features === undefined) return
  if (typeof features !== 'object' || features === null) fail('`features` must be an object')
  for (const name of UNSUPPORTED_FEATURES) if (name in features) fail(unsupportedFeatureMessage(name))
  const socials = features.socials
  if (socials !== undefined && socials !== false) {
    if (!Array.isArray(socials)) fail('`features.socials` must be a list of providers or false')
    for (const provider of socials) {
      if (!SOCIAL_PROVIDERS.includes(provider)) {
        fail(`\`features.socials\` holds "${String(provider)}"; allowed: ${SOCIAL_PROVIDERS.join(', ')}`)
      }
    }
  }
}

/** resolveOptions validates options and fills in the defaults of spec §9; it throws LatchOptionsError. */
export function resolveOptions(options: LatchOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) fail('Latch options must be an object')
  // Spec §5: a legacy sign-in config and a sign-in option cannot both be set.
  // AppKit's legacy sign-in config is not supported (use siwx); spec §5's message when both are set.
  const { siweConfig } = options as { siweConfig?: unknown }
  if (siweConfig !== undefined) fail(options.siwx !== undefined ? 'Cannot set both `siweConfig` and `siwx` options' : '`siweConfig` is not supported yet; use `siwx`')

  if (options.projectId !== undefined && (typeof options.projectId !== 'string' || options.projectId.trim() === '')) {
    fail('`projectId` must be a non-empty string')
  }
  const networks = options.networks
  if (!Array.isArray(networks) || networks.length === 0) fail('`networks` must list at least one network')
  for (const network of networks) {
    if (typeof network !== 'object' || network === null || !Number.isInteger(network.id) || typeof network.name !== 'string') {
      fail('`networks` must hold viem Chain objects (with an integer id and a name)')
    }
  }
  if (new Set(networks.map((n) => n.id)).size !== networks.length) fail('`networks` lists a chain id twice')
  const defaultNetwork = options.defaultNetwork ?? networks[0]
  if (!defaultNetwork || !networks.some((n) => n.id === defaultNetwork.id)) {
    fail(`\`defaultNetwork\` (chain ${options.defaultNetwork?.id}) must be one of \`networks\``)
  }

  const metadata = options.metadata
  if (metadata !== undefined) {
    if (typeof metadata.name !== 'string' || metadata.name.trim() === '') fail('`metadata.name` must be a non-empty string')
    if (typeof metadata.description !== 'string') fail('`metadata.description` must be a string')
    httpUrl('metadata.url', metadata.url)
    if (!Array.isArray(metadata.icons) || metadata.icons.some((icon) => typeof icon !== 'string')) {
      fail('`metadata.icons` must be a list of URLs')
    }
  }

  const apiUrl = httpUrl('apiUrl', options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '')

  if (options.themeMode !== undefined) {
    try {
      assertThemeMode(options.themeMode)
    } catch (error) {
      fail((error as Error).message)
    }
  }
  if (options.locale !== undefined) {
    try {
      assertLocale(options.locale)
    } catch (error) {
      fail((error as Error).message)
    }
  }
  if (options.themeVariables !== undefined) {
    try {
      themeToCssVars(options.themeMode ?? 'light', options.themeVariables)
    } catch (error) {
      fail((error as Error).message)
    }
  }

  validateFeatures(options.features)
  const local = options.features ?? {}
  const features: ResolvedFeatures = {
    ...DEFAULT_FEATURES,
    ...local,
    connectorTypeOrder: orderList('connectorTypeOrder', local.connectorTypeOrder, CONNECTOR_TYPES),
    connectMethodsOrder: orderList('connectMethodsOrder', local.connectMethodsOrder, CONNECT_METHODS),
    walletFeaturesOrder: orderList('walletFeaturesOrder', local.walletFeaturesOrder, WALLET_FEATURES),
  }

  const allWallets = options.allWallets ?? 'SHOW'
  if (!['SHOW', 'HIDE', 'ONLY_MOBILE'].includes(allWallets)) fail('`allWallets` must be "SHOW", "HIDE" or "ONLY_MOBILE"')

  const accountTypes = options.defaultAccountTypes ?? {}
  for (const [ns, type] of Object.entries(accountTypes)) {
    if (!(ns === 'eip155' ? ['eoa', 'smartAccount'] : ns === 'solana' ? ['eoa'] : []).includes(type)) {
      fail(`\`defaultAccountTypes.${ns}\` cannot be "${String(type)}"`)
    }
  }

  const customWallets = options.customWallets ?? []
  for (const wallet of customWallets) {
    if (typeof wallet.id !== 'string' || wallet.id === '' || typeof wallet.name !== 'string' || wallet.name === '') {
      fail('`customWallets` entries need a non-empty id and name')
    }
  }

  return {
    projectId: options.projectId?.trim(),
    networks,
    defaultNetwork,
    metadata,
    apiUrl,
    themeMode: options.themeMode,
    themeVariables: options.themeVariables ?? {},
    locale: options.locale,
    localFeatures: options.features,
    features,
    featuredWalletIds: idList('featuredWalletIds', options.featuredWalletIds),
    includeWalletIds: idList('includeWalletIds', options.includeWalletIds),
    excludeWalletIds: idList('excludeWalletIds', options.excludeWalletIds),
    customWallets,
    allWallets,
    allowUnsupportedChain: options.allowUnsupportedChain ?? false,
    enableNetworkSwitch: options.enableNetworkSwitch ?? true,
    enableEmbedded: options.enableEmbedded ?? false,
    debug: options.debug ?? true,
    enableReconnect: options.enableReconnect ?? true,
    termsConditionsUrl: options.termsConditionsUrl,
    privacyPolicyUrl: options.privacyPolicyUrl,
    siwx: options.siwx,
    frameUrl: options.frameUrl === undefined ? undefined : httpUrl('frameUrl', options.frameUrl).replace(/\/+$/, ''),
    tokens: tokenList(options.tokens),
    chainImages: imageMap('chainImages', options.chainImages),
    connectorImages: imageMap('connectorImages', options.connectorImages),
  }
}

/** imageMap checks an object of image URLs (chainImages, connectorImages): http(s), page-relative or data:image/. */
function imageMap(name: string, value: Readonly<Record<string, string>> = {}): Readonly<Record<string, string>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`\`${name}\` must be an object`)
  for (const [key, url] of Object.entries(value)) {
    // A URL without a scheme is relative; of the schemes, javascript:, blob: and the like are refused.
    if (typeof url !== 'string' || !url || (!/^(https?:|data:image\/)/i.test(url) && /^[a-z][\w+.-]*:/i.test(url))) {
      fail(`\`${name}["${key}"]\` is not an http(s), relative or data:image URL`)
    }
  }
  // Without a prototype, a wallet id like "constructor" finds no image.
  return Object.assign(Object.create(null), value)
}

/** caipNetworkId returns the CAIP-2 id of an EVM chain (`eip155:<id>`). */
export function caipNetworkIdOf(chain: Pick<Chain, 'id'>): `eip155:${number}` {
  return `eip155:${chain.id}`
}
