// What the Solana client and send driver (the on-demand chunks) need to know of Solana networks. Kept apart from
// network.ts and adapter.ts, which the package's entry reaches (its exports): a lazy chunk importing values from
// those would keep them in every page's first load, Solana or not.
import type { LatchNetwork } from '../types'
import type { SolanaNetwork } from './network'

/** The Wallet Standard's names of the public clusters, by CAIP-2 reference (the genesis hash's first 32 characters). */
export const SOLANA_CLUSTERS: Readonly<Record<string, string>> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'solana:devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

/** Whether a configured network is a Solana one. */
export const solanaOnly = (network: LatchNetwork): network is SolanaNetwork => network.chainNamespace === 'solana' && typeof network.caipNetworkId === 'string'

/** The Wallet Standard chain of a Solana network: the cluster's name for the public ones, else its CAIP-2 id. */
export function walletStandardChain(network: SolanaNetwork): `solana:${string}` {
  return (SOLANA_CLUSTERS[network.caipNetworkId.slice('solana:'.length)] ?? network.caipNetworkId) as `solana:${string}`
}
