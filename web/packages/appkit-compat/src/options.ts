// createAppKit's options, read the way AppKit reads them, mapped onto createLatch's. Every AppKit option is
// either mapped (Latch does what it says) or refused with an error naming it: an option an app relies on is
// never dropped without a word. The mapping is pure, so it is tested without a browser.
import type { Chain } from 'viem'
import type { Config as WagmiConfig } from '@wagmi/core'
import type { AllWalletsMode, AppMetadata, CustomWallet, Features, LatchOptions, SIWXConfig, ThemeMode, ThemeVariables } from '@latchkit/core'

/** Thrown by createAppKit and the compat hooks and components for what Latch cannot honour; the message names it. */
export class AppKitCompatError extends Error {
  override name = 'AppKitCompatError'
}

function fail(message: string): never {
  throw new AppKitCompatError(message)
}

/** AppKit's `--w3m-*` (and newer `--apkt-*`) theme variables. */
export type AppKitThemeVariables = {
  '--w3m-font-family'?: string
  '--w3m-accent'?: string
  '--w3m-color-mix'?: string
  '--w3m-color-mix-strength'?: number
  '--w3m-font-size-master'?: string
  '--w3m-border-radius-master'?: string
  '--w3m-z-index'?: number
  '--w3m-qr-color'?: string
  '--apkt-font-family'?: string
  '--apkt-accent'?: string
  '--apkt-color-mix'?: string
  '--apkt-color-mix-strength'?: number
  '--apkt-font-size-master'?: string
  '--apkt-border-radius-master'?: string
  '--apkt-z-index'?: number
  '--apkt-qr-color'?: string
}

/** Each AppKit theme variable (after its `--w3m-` or `--apkt-` prefix) and the Latch theme variable it sets. */
export const THEME_VARIABLE_MAP = {
  'font-family': 'fontFamily',
  accent: 'accent',
  'color-mix': 'colorMix',
  'color-mix-strength': 'colorMixStrength',
  'font-size-master': 'fontSizeMaster',
  'border-radius-master': 'borderRadiusMaster',
  'z-index': 'zIndex',
  'qr-color': 'qrColor',
} as const satisfies Record<string, keyof ThemeVariables>

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * mapThemeVariables turns AppKit's `--w3m-*` / `--apkt-*` keys into Latch's theme variables. Latch's own names
 * (`accent`, `fontFamily`, …) pass as they are. Any other key is refused by name; the values are validated by
 * Latch (createLatch or setThemeVariables), which names the variable when one is wrong.
 */
export function mapThemeVariables(variables: Record<string, unknown>): ThemeVariables {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) fail('`themeVariables` must be an object')
  const latchNames = new Set<string>(Object.values(THEME_VARIABLE_MAP))
  const out: Writable<ThemeVariables> & Record<string, unknown> = {}
  for (const [key, value] of Object.entries(variables)) {
    if (value === undefined) continue
    const match = /^--(?:w3m|apkt)-(.+)$/.exec(key)
    const name = match ? THEME_VARIABLE_MAP[match[1] as keyof typeof THEME_VARIABLE_MAP] : latchNames.has(key) ? key : undefined
    if (!name) {
      fail(`\`themeVariables\` key "${key}" is not supported; supported: ${Object.keys(THEME_VARIABLE_MAP).map((k) => `--w3m-${k}`).join(', ')}`)
    }
    // AppKit takes numbers for these; a numeric string (as CSS would write it) is read as one.
    if ((name === 'zIndex' || name === 'colorMixStrength') && typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
      out[name] = Number(value)
    } else {
      out[name] = value
    }
  }
  return out as ThemeVariables
}

/** createAppKit's options: AppKit's names and shapes, plus the three a Latch app needs (apiUrl, frameUrl, wagmiConfig). */
export interface CreateAppKit {
  projectId?: string
  networks: readonly [Chain, ...Chain[]] | readonly Chain[]
  defaultNetwork?: Chain
  metadata?: AppMetadata
  themeMode?: ThemeMode
  themeVariables?: AppKitThemeVariables & ThemeVariables
  features?: Features
  siwx?: SIWXConfig
  featuredWalletIds?: readonly string[]
  includeWalletIds?: readonly string[]
  excludeWalletIds?: readonly string[]
  customWallets?: readonly CustomWallet[]
  allWallets?: AllWalletsMode
  allowUnsupportedChain?: boolean
  enableNetworkSwitch?: boolean
  enableEmbedded?: boolean
  enableReconnect?: boolean
  /** false leaves WalletConnect (QR code, mobile links) out. */
  enableWalletConnect?: boolean
  debug?: boolean
  termsConditionsUrl?: string
  privacyPolicyUrl?: string
  defaultAccountTypes?: LatchOptions['defaultAccountTypes']
  /** Latch: the base URL of your latchd (default http://127.0.0.1:8080, `latchd dev`). */
  apiUrl?: string
  /** Latch: latchd's frame origin, for the e-mail wallet. */
  frameUrl?: string
  /** Latch: your own wagmi config (add @latchkit/react's walletConnect() connector to it). */
  wagmiConfig?: WagmiConfig
  /** Per CAIP-2 network id, the token the account button shows there instead of the native balance. */
  tokens?: LatchOptions['tokens']
}

/** AppKit options that go to createLatch under the same name and mean the same there. */
export const MAPPED_OPTIONS = [
  'projectId',
  'networks',
  'defaultNetwork',
  'metadata',
  'themeMode',
  'siwx',
  'featuredWalletIds',
  'includeWalletIds',
  'excludeWalletIds',
  'customWallets',
  'allWallets',
  'allowUnsupportedChain',
  'enableNetworkSwitch',
  'enableEmbedded',
  'enableReconnect',
  'debug',
  'termsConditionsUrl',
  'privacyPolicyUrl',
  'defaultAccountTypes',
  'apiUrl',
  'frameUrl',
  'wagmiConfig',
  'tokens',
  'chainImages',
  'connectorImages',
  // Latch refuses it itself, with spec §5's message when siwx is set too.
  'siweConfig',
] as const

/** AppKit options Latch cannot honour, each with why or what to use instead. */
export const REFUSED_OPTIONS: Record<string, string> = {
  adapters: 'Latch brings its own wagmi config (read it with appKit.getWagmiConfig(), or pass yours as `wagmiConfig`)',
  enableWallets: 'every wallet list is always shown',
  enableInjected: 'installed wallets are always offered',
  enableEIP6963: 'EIP-6963 discovery is always on',
  enableCoinbase: 'there is no Coinbase connector',
  enableBaseAccount: 'there is no Base Account connector',
  enableMobileFullScreen: 'the modal is a bottom sheet on narrow screens',
  enableWalletGuide: 'there is no wallet guide footer',
  enableAuthLogger: 'there is no secure-site logger',
  showWallets: 'use `features.emailShowWallets`',
  customRpcUrls: 'RPC goes through latchd; configure its upstreams',
  coinbasePreference: 'there is no Coinbase connector',
  universalProvider: 'WalletConnect goes through latchd\'s relay',
  universalProviderConfigOverride: 'WalletConnect goes through latchd\'s relay',
  manualWCControl: 'WalletConnect is driven by Latch',
  experimental_preferUniversalLinks: 'wallet links come from the registry',
  disableAppend: 'the modal is always mounted into document.body',
  sdkType: 'it is set by the SDK, not the app',
  sdkVersion: 'it is set by the SDK, not the app',
  basic: 'it is set by the SDK, not the app',
}

/** The keys of Latch's Features; AppKit's other features are refused by name. */
export const LATCH_FEATURES = [
  'receive',
  'send',
  'emailShowWallets',
  'analytics',
  'allWallets',
  'legalCheckbox',
  'collapseWallets',
  'connectorTypeOrder',
  'connectMethodsOrder',
  'walletFeaturesOrder',
  'email',
  'socials',
  'swaps',
  'onramp',
  'history',
] as const

/**
 * mapOptions checks createAppKit's options and returns createLatch's. It throws AppKitCompatError naming the
 * first option Latch cannot honour; values themselves are validated by createLatch (LatchOptionsError).
 */
export function mapOptions(options: CreateAppKit): LatchOptions {
  if (typeof options !== 'object' || options === null) fail('createAppKit options must be an object')
  const source = options as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue
    if (key in REFUSED_OPTIONS) fail(`createAppKit option \`${key}\` is not supported by Latch: ${REFUSED_OPTIONS[key]}`)
    if ((MAPPED_OPTIONS as readonly string[]).includes(key)) {
      out[key] = value
    } else if (key === 'themeVariables') {
      out.themeVariables = mapThemeVariables(value as Record<string, unknown>)
    } else if (key === 'features') {
      if (typeof value !== 'object' || value === null) fail('`features` must be an object')
      for (const name of Object.keys(value)) {
        if (!(LATCH_FEATURES as readonly string[]).includes(name)) fail(`createAppKit option \`features.${name}\` is not supported by Latch yet`)
      }
      out.features = value
    } else if (key === 'enableWalletConnect') {
      if (typeof value !== 'boolean') fail('`enableWalletConnect` must be a boolean')
      if (!value) out.walletConnect = false
    } else {
      fail(`createAppKit option \`${key}\` is unknown`)
    }
  }
  return out as unknown as LatchOptions
}
