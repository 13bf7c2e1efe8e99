// The wallets connected per namespace (multi-wallet): wagmi keeps one
// connection per connector (`config.state.connections`) and marks one
// `current`; this lists them as the connection snapshot shows them.
import type { Config } from '@wagmi/core'

import { toWalletInfo } from './connectors.js'
import type { ChainNamespace, ConnectionState, WalletConnection } from './types.js'

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

/**
 * The connector ids of the connections wagmi restored from its storage, kept
 * from the moment its store hydrates: a WagmiProvider without
 * reconnectOnMount (the React layer's) empties wagmi's list when it mounts,
 * which can be before the controller's init() reads it.
 */
export function rememberStoredConnectorIds(config: Config): () => string[] {
  const read = () => [...config.state.connections.values()].map((c) => c.connector.id)
  let ids: string[] = []
  const persist = (config._internal.store as unknown as { persist?: { hasHydrated(): boolean; onFinishHydration(listener: () => void): () => void } }).persist
  if (!persist || persist.hasHydrated()) ids = read()
  else {
    const unsubscribe = persist.onFinishHydration(() => {
      unsubscribe()
      ids = read()
    })
  }
  return () => [...new Set([...ids, ...read()])]
}

/**
 * The connections of `namespace` in a snapshot. A namespace that keeps one
 * connection only (the Solana adapter writes just its account) lists that
 * one, so callers need not know which namespaces hold several.
 */
export function listConnections(state: ConnectionState, namespace: ChainNamespace): readonly WalletConnection[] {
  const listed = state.connections?.[namespace]
  if (listed) return listed
  const single = namespace === 'eip155' || namespace === 'solana' ? state.namespaces[namespace] : undefined
  if (!single || single.status !== 'connected' || !single.connectorId || !single.address) return []
  return [
    {
      namespace,
      connectorId: single.connectorId,
      name: single.wallet?.name ?? single.connectorId,
      icon: single.wallet?.icon,
      rdns: single.wallet?.rdns,
      accounts: [single.address],
      chainId: single.chainId,
      isActive: true,
    },
  ]
}

/** Every address of every connection of `namespace`, the active connection's first, without repeats. */
export function allAccounts(state: ConnectionState, namespace: ChainNamespace): string[] {
  return [...new Set(listConnections(state, namespace).flatMap((c) => c.accounts))]
}
