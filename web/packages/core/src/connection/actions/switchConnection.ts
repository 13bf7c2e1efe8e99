import type { Latch } from '../../latch-types'
import { LatchConnectError } from '../errors'
import { switchWalletConnection } from '../multiWallet'
import { findConnection } from './connections'

/**
 * switchConnection makes the wallet connected through `connectorId` the
 * active one of its namespace (multi-wallet): the account, balance and every
 * request follow it, with no prompt. Rejects with a LatchConnectError when
 * that wallet is not connected.
 */
export async function switchConnection(latch: Latch, connectorId: string): Promise<void> {
  const connection = findConnection(latch, connectorId)
  if (!connection) throw new LatchConnectError('unknown', `Connector not connected: ${connectorId}`)
  if (connection.isActive) return
  if (connection.namespace === 'eip155') await switchWalletConnection(latch._internal.connection, connectorId)
  // Another namespace's client (Solana's) makes a wallet it holds active when asked to connect it, without a prompt.
  else await latch._internal.clients.get(connection.namespace)!.connect(connectorId)
}
