// CAIP ids of the test networks, asked of core's namespace adapters: the
// React package never writes a namespace, its tests included.
import { networkCaipId } from '@latchkit/core'
import { mainnet, optimism } from 'viem/chains'

/** The CAIP-2 id of Ethereum mainnet. */
export const MAINNET_ID = networkCaipId(mainnet)
/** The CAIP-2 id of OP Mainnet. */
export const OPTIMISM_ID = networkCaipId(optimism)
