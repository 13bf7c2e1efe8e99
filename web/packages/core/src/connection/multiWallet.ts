// Switching the active wallet and disconnecting one of several (multi-wallet),
// over the connection controller's wagmi config. Not part of the controller:
// a page loads this only with the views and hooks that offer it.
import { disconnect as wagmiDisconnect } from '@wagmi/core'

import type { ConnectionController } from './controller.js'
import { LatchConnectError, LatchDisconnectError, messageOf } from './errors.js'
import { makeCurrent } from './connections.js'

/** The wagmi connection of the connector `connectorId` (its id, or its uid), if it is connected. */
function findConnection(connection: ConnectionController, connectorId: string) {
  const config = connection.getWagmiConfig()
  return [...config.state.connections.values()].find(
    (c) => typeof c.connector.getProvider === 'function' && (c.connector.id === connectorId || c.connector.uid === connectorId),
  )
}

/**
 * Makes the eip155 connection of `connectorId` the active one, without
 * prompting the wallet: the account follows it, and it is the one stored as
 * active (restored active after a reload). Throws a LatchConnectError when
 * that wallet is not connected.
 */
export async function switchWalletConnection(connection: ConnectionController, connectorId: string): Promise<void> {
  await connection.init()
  const found = findConnection(connection, connectorId)
  if (!found || connection.getWagmiConfig().state.status !== 'connected') {
    throw new LatchConnectError('unknown', `Connector not connected: ${connectorId}`)
  }
  makeCurrent(connection.getWagmiConfig(), found.connector.uid)
}

/**
 * Disconnects one eip155 connection and keeps the others; disconnecting the
 * active one makes another active (the namespace is 'disconnected' only when
 * none is left). As for disconnect, the connection is dropped even when the
 * wallet fails (spec §4), and a LatchDisconnectError is thrown then.
 */
export async function disconnectWalletConnection(connection: ConnectionController, connectorId: string): Promise<void> {
  await connection.init()
  const found = findConnection(connection, connectorId)
  if (!found) return
  const config = connection.getWagmiConfig()
  try {
    await wagmiDisconnect(config, { connector: found.connector })
  } catch (error) {
    config.setState((x) => {
      const connections = new Map(x.connections)
      connections.delete(found.connector.uid)
      // The current one stays current unless it is the one removed.
      const next = (x.current ? connections.get(x.current) : undefined) ?? connections.values().next().value
      return next ? { ...x, connections, current: next.connector.uid } : { ...x, connections, current: null, status: 'disconnected' }
    })
    throw new LatchDisconnectError(messageOf(error), { cause: error })
  }
}
