// Which namespace a Latch instance's account is in right now.
import type { NamespaceConnection } from '../connection/types'
import type { LatchInternal } from '../instance'
import type { NamespaceClient } from './types'
import { adapterOfNetwork, NAMESPACE_ADAPTERS } from './registry'

/**
 * The namespace client of the connected account: the active network's
 * namespace when it is connected (or connecting), else the first that is,
 * else the active network's (the default's without a network controller).
 */
export function activeClient(internal: Pick<LatchInternal, 'clients' | 'connection'> & { network?: LatchInternal['network'] }): { namespace: string; client: NamespaceClient; account: NamespaceConnection } {
  const state = internal.connection.getState()
  const net = internal.network?.store.getState().activeNetwork
  const first = net ? adapterOfNetwork(net).namespace : ''
  const own = internal.clients.get(first)
  let fallback: { namespace: string; client: NamespaceClient; account: NamespaceConnection } | undefined
  for (const [namespace, client] of own ? [[first, own] as const, ...internal.clients] : internal.clients) {
    const account = client.account(state)
    if (account.status !== 'disconnected') return { namespace, client, account }
    fallback ??= { namespace, client, account }
  }
  if (fallback) return fallback
  throw new Error(`No namespace adapter is registered (expected ${NAMESPACE_ADAPTERS[0].namespace})`)
}
