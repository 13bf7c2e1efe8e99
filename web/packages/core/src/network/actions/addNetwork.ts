import type { Chain } from 'viem'
import { latchRpcUrl } from '../../connection/wagmiConfig'
import type { LatchNetwork } from '../../adapters/types'
import type { Latch } from '../../latch-types'
import { LatchOptionsError } from '../../options'
import { addWagmiChain } from '../wagmiChains'

/**
 * addNetwork configures one more EVM network at runtime (AppKit's addNetwork): the Networks view lists it, switching
 * to it works, and it is read through latchd's RPC proxy like the others (with a project id). A malformed chain, a
 * chain id already configured, or a network of another namespace (fixed at createLatch) throws LatchOptionsError.
 */
export function addNetwork(latch: Latch, chain: Chain): void {
  const { network, connection, opts } = latch._internal
  if (typeof chain !== 'object' || chain === null || !Number.isInteger(chain.id) || typeof chain.name !== 'string') {
    throw new LatchOptionsError('addNetwork takes a viem Chain object (with an integer id and a name)')
  }
  if ((chain as LatchNetwork).adapter) throw new LatchOptionsError(`addNetwork takes EVM chains; ${chain.name} is another namespace's, fixed at createLatch`)
  if (network.find(chain.id)) throw new LatchOptionsError(`addNetwork: chain ${chain.id} is already configured`)
  const { projectId, apiUrl } = opts
  addWagmiChain(connection.getWagmiConfig(), chain, projectId ? latchRpcUrl({ apiUrl, projectId, chainId: chain.id }) : undefined)
  network.store.setState({ networks: [...network.store.getState().networks, chain] })
}
