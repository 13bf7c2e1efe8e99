import { networkCaipId, type LatchNetwork } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchNetworkReturnType = {
  chainId: number
  /** CAIP-2 id of the network, as its namespace adapter writes it. */
  caipNetworkId: string
  network: LatchNetwork
}

/** The active network. */
export function useLatchNetwork(): UseLatchNetworkReturnType {
  return useLatchSelector(({ activeNetwork }) => ({
    chainId: activeNetwork.id,
    caipNetworkId: networkCaipId(activeNetwork),
    network: activeNetwork,
  }))
}
