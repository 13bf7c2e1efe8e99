// The connection snapshot's container: immutable snapshots in a store (a
// slice of the instance's root store), replaced only on a real change.
import { createStore, type SliceFactory } from '../store'
import type { ConnectionState, ConnectorInfo, NamespaceConnection, SupportedNamespace } from './types.js'

/** Listener called with the new and the previous snapshot. */
export type ConnectionListener = (state: ConnectionState, previous: ConnectionState) => void

/** Holds the snapshot, replaces it only on a real change and notifies on change. */
export interface StateContainer {
  get(): ConnectionState
  setNamespace(namespace: SupportedNamespace, next: NamespaceConnection): void
  setConnectors(next: readonly ConnectorInfo[]): void
  subscribe(listener: ConnectionListener): () => void
  clearListeners(): void
}

/** Creates a {@link StateContainer} starting from `initial`, kept in the store `slice` makes (default: its own). */
export function createStateContainer(initial: ConnectionState, slice: SliceFactory<ConnectionState> = createStore): StateContainer {
  const store = slice(freezeState(initial))
  const unsubscribers = new Set<() => void>()

  return {
    get: () => store.getState(),
    setNamespace(namespace, next) {
      const state = store.getState()
      if (sameNamespace(state.namespaces[namespace], next)) return
      store.setState({ namespaces: Object.freeze({ ...state.namespaces, [namespace]: Object.freeze({ ...next }) }) })
    },
    setConnectors(next) {
      if (sameConnectors(store.getState().connectors, next)) return
      store.setState({ connectors: Object.freeze(next.map((c) => Object.freeze({ ...c }))) })
    },
    subscribe(listener) {
      const unsubscribe = store.subscribe(listener)
      unsubscribers.add(unsubscribe)
      return () => {
        unsubscribers.delete(unsubscribe)
        unsubscribe()
      }
    },
    clearListeners() {
      for (const unsubscribe of unsubscribers) unsubscribe()
      unsubscribers.clear()
    },
  }
}

function freezeState(state: ConnectionState): ConnectionState {
  return Object.freeze({ ...state, namespaces: Object.freeze({ ...state.namespaces }) })
}

function sameNamespace(a: NamespaceConnection, b: NamespaceConnection): boolean {
  return (
    a.status === b.status &&
    a.address === b.address &&
    a.caipAddress === b.caipAddress &&
    a.chainId === b.chainId &&
    a.connectorId === b.connectorId &&
    a.wallet?.name === b.wallet?.name &&
    a.wallet?.icon === b.wallet?.icon &&
    a.wallet?.rdns === b.wallet?.rdns
  )
}

function sameConnectors(a: readonly ConnectorInfo[], b: readonly ConnectorInfo[]): boolean {
  if (a.length !== b.length) return false
  return a.every((x, i) => {
    const y = b[i]
    return (
      y !== undefined &&
      x.id === y.id &&
      x.name === y.name &&
      x.icon === y.icon &&
      x.rdns === y.rdns &&
      x.type === y.type &&
      x.namespace === y.namespace
    )
  })
}
