import { adapterOfNetwork } from '../../adapters/registry'
import type { Latch, LatchWallet } from '../../latch-types'
import { LatchConnectError } from '../errors'
import { walletConnected } from './walletConnected'

/**
 * connectInjected connects a wallet a connector on the page drives (an
 * installed extension, an external connector) with no view of its own:
 * connectWallet shows ConnectingExternal around it, the headless actions call
 * it bare. It asks for the network picked before connecting (as AppKit
 * does), reports CONNECT_SUCCESS or CONNECT_ERROR, and rejects with a
 * LatchConnectError (kind user_rejected for a decline, in the active locale).
 */
export async function connectInjected(latch: Latch, wallet: LatchWallet & { connectorId: string }): Promise<void> {
  const internal = latch._internal
  try {
    // A wallet of another namespace (a Solana wallet's connector id is `solana:<name>`) connects through its adapter.
    const namespace = wallet.connectorId.startsWith('solana:') ? 'solana' : 'eip155'
    const active = internal.network.store.getState().activeNetwork
    await internal.clients.get(namespace)!.connect(wallet.connectorId, adapterOfNetwork(active).namespace === namespace ? { chainId: active.id } : {})
  } catch (error) {
    const kind = (error as { kind?: string }).kind === 'user_rejected' ? 'user_rejected' : 'unknown'
    const message = kind === 'user_rejected' ? latch.t('connecting.declined') : error instanceof Error ? error.message : String(error)
    internal.events.sendEvent({ type: 'track', event: 'CONNECT_ERROR', properties: { message } })
    throw new LatchConnectError(kind, message, { cause: error })
  }
  walletConnected(latch, wallet, 'browser')
}
