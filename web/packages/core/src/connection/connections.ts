// The wallets connected per namespace (multi-wallet): wagmi keeps one
// connection per connector (`config.state.connections`) and marks one
// `current`, which drives the namespace's account. eip155's list is read from
// wagmi on demand, not kept in the connection snapshot; the Solana adapter,
// which keeps its wallets itself, writes its list there (solanaConnections).
// Only the controller's restore (first load) uses this module's first three
// helpers.
import type { Config } from '@wagmi/core'

import { toWalletInfo } from './connectors.js'
import type { ConnectionController } from './controller.js'
import type { ChainNamespace, WalletConnection } from './types.js'

/**
 * The eip155 connections wagmi holds, the active one first, then the others in
 * the order they connected. Empty unless wagmi is connected; connections
 * restored from storage that nothing reconnected (a connector without
 * methods behind them) are left out.
 */
export function connectionsFromWagmi(config: Config): WalletConnection[] {
  const { connections, current, status } = config.state
  if (status !== 'connected' || !current) return []
  const list: WalletConnection[] = []
  for (const [uid, { accounts, chainId, connector }] of connections) {
    // A connection wagmi restored from storage and nothing reconnected holds a connector without methods: not live.
    if (typeof connector.getProvider !== 'function') continue
    const { name, icon, rdns } = toWalletInfo(config, connector)
    const entry: WalletConnection = {
      namespace: 'eip155',
      connectorId: connector.id,
      name,
      icon,
      rdns,
      accounts: [...accounts],
      chainId,
      isActive: uid === current,
    }
    if (entry.isActive) list.unshift(entry)
    else list.push(entry)
  }
  return list
}

/** The connector ids of wagmi's live connections (not those restored from storage that nothing reconnected). */
export function liveConnectorIds(config: Config): string[] {
  return [...config.state.connections.values()].filter((c) => typeof c.connector.getProvider === 'function').map((c) => c.connector.id)
}

/** Makes wagmi's connection `uid` (already connected) the current one; the namespace follows through watchConnection. */
export function makeCurrent(config: Config, uid: string): void {
  if (config.state.current !== uid && config.state.connections.has(uid)) config.setState((x) => ({ ...x, current: uid }))
}

/**
 * The connector ids of the connections wagmi restored from its storage, kept
 * from the moment its store hydrates: a WagmiProvider without
 * reconnectOnMount (the React layer's) empties wagmi's list when it mounts,
 * which can be before the controller's init() reads it.
 */
export function rememberStoredConnectorIds(config: Config): () => string[] {
  const read = () => [...config.state.connections.values()].map((c) => c.connector.id)
  let ids = read()
  // Until the store hydrates (a storage read asynchronously), the list grows with each change; afterwards it stays.
  const unsubscribe = config.subscribe(
    (state) => state.connections,
    () => {
      ids = [...new Set([...ids, ...read()])]
      if ((config._internal.store as unknown as { persist?: { hasHydrated(): boolean } }).persist?.hasHydrated() !== false) unsubscribe()
    },
  )
  return () => [...new Set([...ids, ...read()])]
}

/**
 * The connections of `namespace`, the active one first: wagmi's for eip155,
 * the Solana adapter's list for solana (empty until its client has loaded),
 * none for a namespace without an adapter.
 */
export function listConnections(connection: ConnectionController, namespace: ChainNamespace): WalletConnection[] {
  if (namespace === 'eip155') return connectionsFromWagmi(connection.getWagmiConfig())
  return namespace === 'solana' ? [...(connection.getState().solanaConnections ?? [])] : []
}

/** Every address of every connection of `namespace`, the active connection's first, without repeats. */
export function allAccounts(connection: ConnectionController, namespace: ChainNamespace): string[] {
  return [...new Set(listConnections(connection, namespace).flatMap((c) => c.accounts))]
}

/**
 * Calls `onChange` whenever the list of connections may have changed: wagmi's
 * state (a wallet connects, disconnects, switches account or chain, the active
 * one changes) or the connection snapshot (other namespaces). Returns the
 * unsubscribe function.
 */
export function watchConnectionList(connection: ConnectionController, onChange: () => void): () => void {
  const unsubscribeWagmi = connection.getWagmiConfig().subscribe((state) => state, onChange)
  const unsubscribeState = connection.subscribe(onChange)
  return () => {
    unsubscribeWagmi()
    unsubscribeState()
  }
}
