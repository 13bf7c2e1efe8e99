import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react'
import { disconnectConnection, listConnections, switchConnection, watchConnectionList, type WalletConnection } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

/** One connected wallet (multi-wallet). */
export type LatchConnection = Pick<WalletConnection, 'connectorId' | 'name' | 'icon' | 'accounts' | 'chainId' | 'isActive'> & {
  readonly namespace: string
}

export type UseLatchConnectionsReturnType = {
  /** The wallets connected in the namespace, the active one first. */
  connections: readonly LatchConnection[]
  /** Every address of every connected wallet of the namespace, the active wallet's first. */
  allAccounts: readonly string[]
  /** Makes the wallet of `connectorId` the active one (no wallet prompt). */
  switchConnection: (connectorId: string) => Promise<void>
  /** Disconnects the wallet of `connectorId` only; another becomes active if it was the active one. */
  disconnect: (connectorId: string) => Promise<void>
}

/**
 * The wallets connected in `namespace` (default: the namespace of the account shown), to list them, switch the
 * active one or disconnect one. Re-renders when a wallet connects, disconnects or changes account or chain.
 */
export function useLatchConnections(namespace?: string): UseLatchConnectionsReturnType {
  const latch = useLatchInstance()
  const shown = useLatchSelector((state) => state.account.caipAddress?.split(':')[0])
  const ns = (namespace ?? shown ?? 'eip155') as Parameters<typeof listConnections>[1]
  const controller = latch._internal.connection
  const subscribe = useCallback((onChange: () => void) => watchConnectionList(controller, onChange), [controller])
  // The list is rebuilt only when wagmi's state, the connection snapshot or the namespace changed (a stable snapshot).
  const cache = useRef<{ wagmi: unknown; state: unknown; ns: string; list: readonly LatchConnection[] } | null>(null)
  const read = (): readonly LatchConnection[] => {
    const wagmi = controller.getWagmiConfig().state
    const state = controller.getState()
    const cached = cache.current
    if (cached && cached.wagmi === wagmi && cached.state === state && cached.ns === ns) return cached.list
    const list = listConnections(controller, ns)
    cache.current = { wagmi, state, ns, list }
    return list
  }
  const connections = useSyncExternalStore(subscribe, read, read)
  const accounts = useMemo(() => [...new Set(connections.flatMap((c) => c.accounts))], [connections])
  const switchTo = useCallback((connectorId: string) => switchConnection(latch, connectorId), [latch])
  const disconnect = useCallback((connectorId: string) => disconnectConnection(latch, connectorId), [latch])
  return useMemo(
    () => ({ connections, allAccounts: accounts, switchConnection: switchTo, disconnect }),
    [connections, accounts, switchTo, disconnect],
  )
}
