// Solana networks as the widget lists them: a viem-Chain-shaped object (the
// network lists, switcher and views take Chains) that carries its CAIP-2 id
// and the Solana adapter. Only an app that defines a Solana network imports
// this module, so an EVM-only page carries none of it.
import type { LatchNetwork } from '../types'
import { solanaAdapter } from './adapter'

const reference = /^[1-9A-HJ-NP-Za-km-z]{32}$/

/**
 * The numeric id a Solana network has in the widget's network lists: a
 * negative number derived from its CAIP-2 reference (FNV-1a), so it never
 * equals an EVM chain id (always positive). Its identity elsewhere is its
 * CAIP-2 id.
 */
export function solanaNetworkId(caipReference: string): number {
  let hash = 0x811c9dc5
  for (const c of caipReference) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0
  return -(hash + 1)
}

/** What defineSolanaNetwork takes. */
export interface SolanaNetworkParameters {
  /** The CAIP-2 reference: the first 32 characters of the cluster's genesis hash (base58). */
  readonly reference: string
  readonly name: string
  /** The cluster's own RPC URL (used only when the app sets no projectId; otherwise latchd's RPC proxy is). */
  readonly rpcUrl?: string | undefined
  readonly explorer?: { readonly name: string; readonly url: string } | undefined
  readonly testnet?: boolean | undefined
}

/** A Solana network of the widget. */
export type SolanaNetwork = LatchNetwork & { readonly caipNetworkId: `solana:${string}`; readonly chainNamespace: 'solana' }

/** defineSolanaNetwork makes a Solana network to list in `networks` beside EVM chains. */
export function defineSolanaNetwork(params: SolanaNetworkParameters): SolanaNetwork {
  if (!reference.test(params.reference)) throw new Error(`A Solana network's reference is the genesis hash's first 32 base58 characters, not ${JSON.stringify(params.reference)}`)
  const url = params.rpcUrl ?? ''
  return {
    id: solanaNetworkId(params.reference),
    name: params.name,
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: url ? [url] : [] } },
    ...(params.explorer ? { blockExplorers: { default: params.explorer } } : {}),
    testnet: params.testnet ?? false,
    caipNetworkId: `solana:${params.reference}`,
    chainNamespace: 'solana',
    adapter: solanaAdapter,
  } as SolanaNetwork
}

/** Solana's mainnet. */
export const solanaMainnet = /* @__PURE__ */ defineSolanaNetwork({
  reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  name: 'Solana',
  rpcUrl: 'https://api.mainnet-beta.solana.com',
  explorer: { name: 'Solscan', url: 'https://solscan.io' },
})

/** Solana's public devnet. */
export const solanaDevnet = /* @__PURE__ */ defineSolanaNetwork({
  reference: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  name: 'Solana Devnet',
  rpcUrl: 'https://api.devnet.solana.com',
  explorer: { name: 'Solscan', url: 'https://solscan.io' },
  testnet: true,
})

/** Solana's public testnet. */
export const solanaTestnet = /* @__PURE__ */ defineSolanaNetwork({
  reference: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  name: 'Solana Testnet',
  rpcUrl: 'https://api.testnet.solana.com',
  explorer: { name: 'Solscan', url: 'https://solscan.io' },
  testnet: true,
})

/** Whether a configured network is a Solana one. */
export function isSolanaNetwork(network: LatchNetwork): network is SolanaNetwork {
  return network.chainNamespace === 'solana' && typeof network.caipNetworkId === 'string'
}
