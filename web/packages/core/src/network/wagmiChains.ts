// wagmi keeps its chains in a store of its own (config._internal.chains, which
// config.chains reads) and its transports in a map by chain id that getClient
// reads on a chain's first use: a network added at runtime needs both, or
// wagmi refuses to switch to it and has no RPC to read it with.
import type { Config } from '@wagmi/core'
import type { Chain, Transport } from 'viem'
import { latchTransport } from '../connection/wagmiConfig'

/**
 * addWagmiChain adds `chain` to wagmi's chains, with a transport to `url` (latchd's RPC proxy for the chain, or
 * undefined for the chain's own RPC) unless the config already has one for it (an app's own wagmi config may).
 */
export function addWagmiChain(config: Config, chain: Chain, url: string | undefined): void {
  const transports = config._internal.transports as Record<number, Transport>
  transports[chain.id] ??= latchTransport(url)
  config._internal.chains.setState((chains) => (chains.some((c) => c.id === chain.id) ? chains : [...chains, chain]))
}

/** removeWagmiChain drops `chainId` from wagmi's chains; wagmi keeps at least one (it ignores an empty list). */
export function removeWagmiChain(config: Config, chainId: number): void {
  config._internal.chains.setState((chains) => chains.filter((c) => c.id !== chainId) as unknown as typeof chains)
}
