// What the connection layer keeps in the browser (spec §3 "Stored in the
// browser": connected connector id per namespace, connected namespaces, and the
// connection status that drives the startup reconnect of spec §4). The recent-
// wallets list is not kept here; the caller records it.
import { STORAGE_PREFIX } from '../storage'
import type { ChainNamespace, StorageLike } from './types.js'

/** Names of the keys the connection layer writes. All start with `latch:`. */
export const storageKeys = {
  /** 'connected' | 'disconnected' per namespace; read at startup (spec §4). */
  connectionStatus: (namespace: ChainNamespace) => `${STORAGE_PREFIX}connectionStatus:${namespace}` as const,
  /** The wagmi connector id of the namespace's connection. */
  connectedConnectorId: (namespace: ChainNamespace) => `${STORAGE_PREFIX}connectedConnectorId:${namespace}` as const,
  /** Comma-joined list of connected namespaces. */
  connectedNamespaces: `${STORAGE_PREFIX}connectedNamespaces`,
  /** Last CAIP-10 address, shown while reconnecting; cleared by a stored 'disconnected' (spec §4). */
  cachedCaipAddress: (namespace: ChainNamespace) => `${STORAGE_PREFIX}cachedCaipAddress:${namespace}` as const,
} as const

/** Prefix of the keys of the wagmi config the controller creates (`latch:wagmi.store`, …). */
export const wagmiStorageKeyPrefix = `${STORAGE_PREFIX}wagmi`

/** A stored connection status; anything else in storage reads as undefined. */
export type StoredStatus = 'connected' | 'disconnected'

/** Typed access to the connection keys of {@link storageKeys}. */
export interface ConnectionStorage {
  readStatus(namespace: ChainNamespace): StoredStatus | undefined
  readConnectorId(namespace: ChainNamespace): string | undefined
  readCachedCaipAddress(namespace: ChainNamespace): string | undefined
  readConnectedNamespaces(): ChainNamespace[]
  /** Records a live connection of the namespace. */
  markConnected(namespace: ChainNamespace, connection: { connectorId: string; caipAddress: string }): void
  /** Records that the namespace has no connection: status 'disconnected', connector and address removed. */
  markDisconnected(namespace: ChainNamespace): void
  clearCachedCaipAddress(namespace: ChainNamespace): void
}

const namespaces: ReadonlySet<string> = new Set<ChainNamespace>(['eip155', 'solana', 'bip122', 'polkadot', 'cosmos'])

/**
 * Wraps a Storage-like object. Every access is guarded because browsers throw
 * from localStorage in private modes and on quota errors; a failed write must
 * never break a connection, only its persistence.
 */
export function createConnectionStorage(storage: StorageLike): ConnectionStorage {
  const get = (key: string): string | undefined => {
    try {
      return storage.getItem(key) ?? undefined
    } catch {
      return undefined
    }
  }
  const set = (key: string, value: string) => {
    try {
      storage.setItem(key, value)
    } catch {
      // Persistence is best effort (see above).
    }
  }
  const remove = (key: string) => {
    try {
      storage.removeItem(key)
    } catch {
      // Persistence is best effort (see above).
    }
  }
  const readConnectedNamespaces = (): ChainNamespace[] =>
    (get(storageKeys.connectedNamespaces) ?? '')
      .split(',')
      .filter((ns): ns is ChainNamespace => namespaces.has(ns))
  const writeConnectedNamespaces = (list: readonly ChainNamespace[]) => {
    if (list.length === 0) remove(storageKeys.connectedNamespaces)
    else set(storageKeys.connectedNamespaces, list.join(','))
  }

  return {
    readStatus(namespace) {
      const value = get(storageKeys.connectionStatus(namespace))
      return value === 'connected' || value === 'disconnected' ? value : undefined
    },
    readConnectorId: (namespace) => get(storageKeys.connectedConnectorId(namespace)) || undefined,
    readCachedCaipAddress: (namespace) => get(storageKeys.cachedCaipAddress(namespace)) || undefined,
    readConnectedNamespaces,
    markConnected(namespace, { connectorId, caipAddress }) {
      set(storageKeys.connectionStatus(namespace), 'connected')
      set(storageKeys.connectedConnectorId(namespace), connectorId)
      set(storageKeys.cachedCaipAddress(namespace), caipAddress)
      const list = readConnectedNamespaces()
      if (!list.includes(namespace)) writeConnectedNamespaces([...list, namespace])
    },
    markDisconnected(namespace) {
      set(storageKeys.connectionStatus(namespace), 'disconnected')
      remove(storageKeys.connectedConnectorId(namespace))
      remove(storageKeys.cachedCaipAddress(namespace))
      writeConnectedNamespaces(readConnectedNamespaces().filter((ns) => ns !== namespace))
    },
    clearCachedCaipAddress: (namespace) => remove(storageKeys.cachedCaipAddress(namespace)),
  }
}
