// The `walletConnect` option of createLatch and what the WalletConnect
// connector is built from. The default points everything at the configured
// latchd: the relay websocket at ws(s):// of the API URL (latchd serves it at
// `/` and `/relay`, spec appkit-relay §1) and chain reads at its RPC proxy.
import type { CreateConnectorFn } from '@wagmi/core'
import { latchRpcUrl } from '../connection/wagmiConfig.js'
import { validateNonEvmChains, type NonEvmChains } from './namespaces.js'

/** What an app may set under `walletConnect` (or `false` to leave WalletConnect out). */
export interface WalletConnectOptions {
  /**
   * The relay's websocket URL. Default: the API URL with ws:// or wss:// (the
   * relay of the configured latchd). The SDK adds `auth` and `projectId`.
   */
  readonly relayUrl?: string
  /** Non-EVM chains to request in the same session, e.g. `{ solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] }`. */
  readonly namespaces?: NonEvmChains
  /**
   * What the WalletConnect SDK itself logs to the console (default 'silent'). Its errors include
   * ordinary outcomes such as a declined request; the widget shows failures in its views either way.
   */
  readonly logLevel?: WalletConnectLogLevel
}

/** Log levels of the WalletConnect SDK's logger. */
export const WALLET_CONNECT_LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug', 'trace'] as const
/** A log level of the WalletConnect SDK's logger. */
export type WalletConnectLogLevel = (typeof WALLET_CONNECT_LOG_LEVELS)[number]

/** The dapp metadata wallets show in the connection request. */
export interface WalletConnectMetadata {
  readonly name: string
  readonly description: string
  readonly url: string
  readonly icons: readonly string[]
}

/** Everything the WalletConnect connector needs, resolved from the Latch options. */
export interface WalletConnectParameters {
  /** The latchd project id: relay authentication and RPC proxy access. */
  readonly projectId: string
  /** latchd's base URL (for the RPC proxy, and the relay unless relayUrl is set). */
  readonly apiUrl: string
  /** The relay websocket URL; default {@link defaultRelayUrl}(apiUrl). */
  readonly relayUrl?: string | undefined
  /** Sent with the session proposal; default: the page's title and origin. */
  readonly metadata?: WalletConnectMetadata | undefined
  /** Non-EVM chains to request beside the wagmi config's EVM chains. */
  readonly namespaces?: NonEvmChains | undefined
  /** The SDK's console logging; default 'silent'. */
  readonly logLevel?: WalletConnectLogLevel | undefined
}

/**
 * defaultRelayUrl is the relay of a latchd: its API URL with the http scheme
 * turned into the websocket one (http → ws, https → wss), path kept, so a
 * latchd behind a path prefix keeps it. Query and fragment are dropped.
 */
export function defaultRelayUrl(apiUrl: string): string {
  const url = new URL(apiUrl)
  if (url.protocol === 'http:') url.protocol = 'ws:'
  else if (url.protocol === 'https:') url.protocol = 'wss:'
  else throw new Error(`\`apiUrl\` must be an http(s) URL, not ${JSON.stringify(apiUrl)}`)
  url.search = ''
  url.hash = ''
  return url.toString().replace(/\/+$/, '')
}

/** validateRelayUrl returns a ws(s) URL unchanged, or throws an Error naming the option. */
export function validateRelayUrl(value: unknown): string {
  if (typeof value !== 'string') throw new Error('`walletConnect.relayUrl` must be a string')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`\`walletConnect.relayUrl\` must be an absolute URL, not ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new Error(`\`walletConnect.relayUrl\` must be a ws:// or wss:// URL, not ${JSON.stringify(value)}`)
  }
  return value
}

/** The option after validation: the relay URL to use and the extra namespaces. */
export interface ResolvedWalletConnectOptions {
  readonly relayUrl: string
  readonly namespaces: NonEvmChains
  readonly logLevel: WalletConnectLogLevel
}

/**
 * resolveWalletConnectOptions validates the `walletConnect` option against
 * the API URL. Returns undefined for `false` (WalletConnect left out). Throws
 * an Error naming the option when it is malformed.
 */
export function resolveWalletConnectOptions(
  value: WalletConnectOptions | false | undefined,
  apiUrl: string,
): ResolvedWalletConnectOptions | undefined {
  if (value === false) return undefined
  if (value !== undefined && (typeof value !== 'object' || value === null)) {
    throw new Error('`walletConnect` must be an object or false')
  }
  const logLevel = value?.logLevel ?? 'silent'
  if (!WALLET_CONNECT_LOG_LEVELS.includes(logLevel)) {
    throw new Error(`\`walletConnect.logLevel\` must be one of ${WALLET_CONNECT_LOG_LEVELS.join(', ')}`)
  }
  return {
    relayUrl: value?.relayUrl === undefined ? defaultRelayUrl(apiUrl) : validateRelayUrl(value.relayUrl),
    namespaces: validateNonEvmChains(value?.namespaces),
    logLevel,
  }
}

/** evmRpcUrl is latchd's RPC proxy URL for an EVM chain (`${api}/v1?chainId=eip155:N&projectId=…`). */
export function evmRpcUrl(parameters: Pick<WalletConnectParameters, 'apiUrl' | 'projectId'>, chainId: number): string {
  return latchRpcUrl({ apiUrl: parameters.apiUrl, projectId: parameters.projectId, chainId })
}

/** Builds the WalletConnect connector from resolved parameters (@latchkit/react's walletConnect). */
export type WalletConnectConnectorFactory = (parameters: WalletConnectParameters) => CreateConnectorFn
