import type { Chain } from 'viem'
import { activeClient } from '../../adapters/active'
import type { LatchNetwork } from '../../adapters/types'
import type { Latch } from '../../latch-types'
import { LatchOptionsError } from '../../options'
import { removeWagmiChain } from '../wagmiChains'

/**
 * removeNetwork stops offering a network at runtime (AppKit's removeNetwork). Removing the active network makes the
 * first remaining one active; a wallet still on the removed chain is then on an unsupported chain (the
 * UnsupportedChain rules apply). An unknown chain id, or the last network, throws LatchOptionsError.
 */
export function removeNetwork(latch: Latch, chainId: number): void {
  const internal = latch._internal
  const { network, connection } = internal
  const target = network.find(chainId)
  if (!target) throw new LatchOptionsError(`removeNetwork: chain ${chainId} is not configured`)
  const { networks, activeNetwork } = network.store.getState()
  const rest = networks.filter((n) => n.id !== chainId)
  if (!rest[0]) throw new LatchOptionsError('removeNetwork: the last network cannot be removed; Latch needs at least one')
  network.store.setState({ networks: rest as [Chain, ...Chain[]] })
  // The active network stays one of the configured ones (NETWORK_SWITCHED fires).
  if (activeNetwork.id === chainId) network.setActiveNetwork(rest[0])
  if (!(target as LatchNetwork).adapter) removeWagmiChain(connection.getWagmiConfig(), chainId)
  const { account } = activeClient(internal)
  if (account.status === 'connected' && account.chainId === chainId) network.followWalletChain(chainId)
}
