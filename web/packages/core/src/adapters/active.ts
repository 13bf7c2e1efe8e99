// Which namespace a Latch instance's account is in right now.
import type { NamespaceConnection } from '../connection/types'
import type { LatchInternal } from '../instance'
import type { NamespaceClient } from './types'
import { NAMESPACE_ADAPTERS } from './registry'

/** The namespace client of the connected account: the first connected (or connecting) namespace, else the default. */
export function activeClient(internal: Pick<LatchInternal, 'clients' | 'connection'>): { namespace: string; client: NamespaceClient; account: NamespaceConnection } {
  const state = internal.connection.getState()
  let fallback: { namespace: string; client: NamespaceClient; account: NamespaceConnection } | undefined
  for (const [namespace, client] of internal.clients) {
    const account = client.account(state)
    if (account.status !== 'disconnected') return { namespace, client, account }
    fallback ??= { namespace, client, account }
  }
  if (fallback) return fallback
  throw new Error(`No namespace adapter is registered (expected ${NAMESPACE_ADAPTERS[0].namespace})`)
}
