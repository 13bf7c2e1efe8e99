// Spec §4: "Disconnecting a pairing-protocol or auth chain also disconnects
// other chains using the same connector." A WalletConnect session (or an
// embedded-wallet login) spans every namespace it was approved for; ending it
// for one namespace ends it for all, so their states must go together.
import type { ConnectorType } from '../connection/types.js'

/** One namespace's connection, as far as the rule needs it. */
export interface NamespaceConnector<N extends string = string> {
  readonly namespace: N
  /** The connector of the namespace's connection; undefined when not connected. */
  readonly connectorId: string | undefined
  readonly connectorType: ConnectorType | undefined
}

/** Connector types whose one session covers several namespaces. */
const sessionWideTypes: ReadonlySet<ConnectorType> = new Set<ConnectorType>(['WALLET_CONNECT', 'AUTH', 'ID_AUTH'])

/**
 * namespacesToDisconnect lists the namespaces a disconnect of `target` must
 * clear: the target, and — when it is connected through WalletConnect or the
 * embedded wallet — every other namespace connected through the same
 * connector. The target comes first; the rest keep their given order.
 */
export function namespacesToDisconnect<N extends string>(target: N, connections: readonly NamespaceConnector<N>[]): N[] {
  const own = connections.find((c) => c.namespace === target)
  if (!own?.connectorId || !own.connectorType || !sessionWideTypes.has(own.connectorType)) return [target]
  const shared = connections
    .filter((c) => c.namespace !== target && c.connectorId === own.connectorId)
    .map((c) => c.namespace)
  return [target, ...shared]
}
