// A minimal observable container for the immutable connection snapshot.
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

/** Creates a {@link StateContainer} starting from `initial`. */
export function createStateContainer(initial: ConnectionState): StateContainer {
  let state = freezeState(initial)
  const listeners = new Set<ConnectionListener>()

  const commit = (next: ConnectionState) => {
    const previous = state
    state = freezeState(next)
    for (const listener of [...listeners]) listener(state, previous)
  }

  return {
    get: () => state,
    setNamespace(namespace, next) {
      if (sameNamespace(state.namespaces[namespace], next)) return
      commit({ ...state, namespaces: { ...state.namespaces, [namespace]: Object.freeze({ ...next }) } })
    },
    setConnectors(next) {
      if (sameConnectors(state.connectors, next)) return
      commit({ ...state, connectors: Object.freeze(next.map((c) => Object.freeze({ ...c }))) })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    clearListeners: () => listeners.clear(),
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
