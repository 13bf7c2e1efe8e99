import { useCallback } from 'react'
import { networkCaipId, type LatchNetwork } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchNetworkReturnType = {
  chainId: number
  /** CAIP-2 id of the network, as its namespace adapter writes it. */
  caipNetworkId: string
  network: LatchNetwork
  /**
   * Switches the active network (a configured network, or its chain id): as `latch.switchNetwork`, the wallet is
   * asked when one is connected; rejects with a LatchSwitchNetworkError when it refuses or the chain is not configured.
   */
  switchNetwork: (network: LatchNetwork | number) => Promise<void>
}

/** The active network, and a way to switch it. */
export function useLatchNetwork(): UseLatchNetworkReturnType {
  const latch = useLatchInstance()
  const active = useLatchSelector(({ activeNetwork }) => ({
    chainId: activeNetwork.id,
    caipNetworkId: networkCaipId(activeNetwork),
    network: activeNetwork,
  }))
  const switchNetwork = useCallback((network: LatchNetwork | number) => latch.switchNetwork(typeof network === 'number' ? network : network.id), [latch])
  return { ...active, switchNetwork }
}
