import { type LatchConnection, useLatchConnections } from './useLatchConnections'

export type UseLatchConnectionReturnType = {
  /** The active wallet of the namespace; undefined when none is connected. */
  connection: LatchConnection | undefined
}

/** The active connected wallet of `namespace` (default: the namespace of the account shown). */
export function useLatchConnection(namespace?: string): UseLatchConnectionReturnType {
  const { connections } = useLatchConnections(namespace)
  return { connection: connections.find((c) => c.isActive) }
}
