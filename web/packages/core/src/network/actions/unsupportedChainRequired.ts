import { activeClient } from '../../adapters/active'
import { networkCaipId } from '../../adapters/registry'
import type { Latch } from '../../latch-types'
import { shouldShowUnsupportedChain } from '../../modal/router'

/**
 * unsupportedChainRequired says whether the wallet's chain `chainId` must show
 * UnsupportedChain (spec §2): not configured, switching on, unsupported chains
 * not allowed, and no basic WalletConnect pairing session.
 */
export function unsupportedChainRequired(latch: Latch, chainId: number | undefined): boolean {
  const internal = latch._internal
  const { account, namespace } = activeClient(internal)
  return shouldShowUnsupportedChain({
    activeCaipNetworkId: chainId === undefined ? undefined : `${namespace}:${chainId}`,
    requestedCaipNetworkIds: internal.networks.map(networkCaipId),
    enableNetworkSwitch: internal.opts.enableNetworkSwitch,
    allowUnsupportedChain: internal.opts.allowUnsupportedChain,
    hasBasicPairingSession: internal.walletConnect.hasBasicPairingSession(account.connectorId),
  })
}
