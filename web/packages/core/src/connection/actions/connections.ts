import { listConnections } from '../connections'
import type { Latch } from '../../latch-types'
import type { ChainNamespace, WalletConnection } from '../types'

/**
 * connectionsOf lists the wallets connected in `namespace` (default: the
 * namespace of the account shown), the active one first.
 */
export function connectionsOf(latch: Latch, namespace?: string): WalletConnection[] {
  return listConnections(latch._internal.connection, (namespace ?? activeNamespace(latch)) as ChainNamespace)
}

/** The namespace of the account the widget shows (else the default namespace's). */
export function activeNamespace(latch: Latch): string {
  return latch.getState().account.caipAddress?.split(':')[0] ?? latch._internal.clients.keys().next().value ?? 'eip155'
}

/** The connection of `connectorId` in any namespace, if it is connected. */
export function findConnection(latch: Latch, connectorId: string): WalletConnection | undefined {
  for (const namespace of latch._internal.clients.keys()) {
    const found = listConnections(latch._internal.connection, namespace as ChainNamespace).find((c) => c.connectorId === connectorId)
    if (found) return found
  }
  return undefined
}
