import type { Chain } from 'viem'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchNetworkReturnType = {
  chainId: number
  /** CAIP-2 id, e.g. `eip155:1`. */
  caipNetworkId: string
  network: Chain
}

/** The active network. */
export function useLatchNetwork(): UseLatchNetworkReturnType {
  return useLatchSelector(({ activeNetwork }) => ({
    chainId: activeNetwork.id,
    caipNetworkId: `eip155:${activeNetwork.id}`,
    network: activeNetwork,
  }))
}
