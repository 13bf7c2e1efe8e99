// The wagmi config Latch creates when the app does not bring its own.
import { type Config, createConfig, type CreateConnectorFn, createStorage, http, injected, type Transport } from '@wagmi/core'
import type { Chain } from 'viem'

import { wagmiStorageKeyPrefix } from './storage.js'
import type { StorageLike } from './types.js'

/** RPC limits of spec §9: 10 s timeout, 3 retries from a 150 ms base delay (viem backs off exponentially). */
const rpcTimeoutMs = 10_000
const rpcRetryCount = 3
const rpcRetryDelayMs = 150

/**
 * The URL of latchd's JSON-RPC proxy for an EVM chain (spec §7: "the default
 * node URL is the provider's RPC host with chainId and projectId query params
 * (path /v1/)"), e.g. `https://api.example/v1?chainId=eip155:1&projectId=abc`.
 */
export function latchRpcUrl(params: { apiUrl: string; projectId: string; chainId: number }): string {
  const base = params.apiUrl.replace(/\/+$/, '')
  return `${base}/v1?chainId=eip155:${params.chainId}&projectId=${encodeURIComponent(params.projectId)}`
}

/** The http transport of every chain in Latch's wagmi config (spec §9's limits), to `url` or the chain's own RPC. */
export function latchTransport(url: string | undefined): Transport {
  return http(url, {
    timeout: rpcTimeoutMs,
    retryCount: rpcRetryCount,
    retryDelay: rpcRetryDelayMs,
    // text/plain keeps the POST a "simple" request: no CORS preflight round trip.
    fetchOptions: { headers: { 'Content-Type': 'text/plain' } },
  })
}

/** Parameters of {@link createDefaultWagmiConfig}. */
export interface DefaultWagmiConfigParameters {
  networks: readonly [Chain, ...Chain[]]
  /** RPC URL per chain; undefined uses the chain's own `rpcUrls.default`. */
  transportUrl?: ((chain: Chain) => string | undefined) | undefined
  storage: StorageLike
  /** Key prefix of wagmi's stored state (default `latch:wagmi`; a cookie name cannot hold the colon). */
  storageKey?: string | undefined
  /** wagmi's `ssr`: its state is read from storage after mount, not at creation, so server and client render alike. */
  ssr?: boolean | undefined
  /** Connectors beside the injected one, e.g. WalletConnect (@latchkit/react's createLatch adds it). */
  connectors?: readonly CreateConnectorFn[] | undefined
}

/**
 * Creates a wagmi config with EIP-6963 discovery on, the target-less injected
 * connector for wallets that only set `window.ethereum`, an http transport per
 * network, and wagmi's own persistence under `latch:wagmi.*` (it holds the
 * injected connector's disconnect shim, which keeps a disconnected wallet from
 * silently reconnecting).
 */
export function createDefaultWagmiConfig(params: DefaultWagmiConfigParameters): Config {
  const transports: Record<number, Transport> = {}
  for (const chain of params.networks) transports[chain.id] = latchTransport(params.transportUrl?.(chain))
  return createConfig({
    chains: params.networks,
    connectors: [injected(), ...(params.connectors ?? [])],
    multiInjectedProviderDiscovery: true,
    ssr: params.ssr ?? false,
    storage: createStorage({ storage: params.storage, key: params.storageKey ?? wagmiStorageKeyPrefix }),
    transports,
  })
}
