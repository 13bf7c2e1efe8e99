import type { Latch } from '../../latch-types'
import { disconnectWalletConnection } from '../multiWallet'
import { findConnection } from './connections'

/**
 * disconnectConnection disconnects one connected wallet and keeps the others
 * (multi-wallet); when it was the active one another becomes active. The
 * modal closes only when no wallet is left. Reported as DISCONNECT_SUCCESS or
 * DISCONNECT_ERROR; a wallet that fails to disconnect is dropped anyway and
 * the error is rethrown.
 */
export async function disconnectConnection(latch: Latch, connectorId: string): Promise<void> {
  const internal = latch._internal
  const connection = findConnection(latch, connectorId)
  if (!connection) return
  try {
    if (connection.namespace === 'eip155') await disconnectWalletConnection(internal.connection, connectorId)
    // Another namespace's client keeps its connections itself (Solana's) and disconnects one of them.
    else {
      const client = internal.clients.get(connection.namespace)
      if (!client?.disconnectConnection) throw new Error(`${connection.namespace} keeps one connection: use disconnect()`)
      await client.disconnectConnection(connectorId)
    }
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_SUCCESS' })
  } catch (error) {
    internal.events.sendEvent({ type: 'track', event: 'DISCONNECT_ERROR', properties: { message: error instanceof Error ? error.message : String(error) } })
    throw error
  } finally {
    if (latch.getState().account.status === 'disconnected') internal.modal.close()
  }
}
