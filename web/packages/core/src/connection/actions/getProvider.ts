import { activeClient } from '../../adapters/active'
import type { Latch } from '../../latch-types'

/** getProvider resolves the connected wallet's own provider (EIP-1193 for eip155), or undefined. */
export function getProvider(latch: Latch): Promise<unknown> {
  return activeClient(latch._internal).client.provider()
}
