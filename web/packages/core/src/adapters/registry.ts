// The namespace adapters Latch knows, registered in one place. Views and hooks
// ask these helpers for ids and networks instead of writing a namespace.
import type { LatchNetwork, NamespaceAdapter, NamespaceClient, NamespaceClientContext } from './types'
import { eip155Adapter } from './eip155/adapter'

/** Every registered adapter; the first is the default for networks and accounts that name none. */
export const NAMESPACE_ADAPTERS: readonly [NamespaceAdapter, ...NamespaceAdapter[]] = [eip155Adapter]

/** The adapter of a CAIP-2 namespace, if one is registered. */
export function adapterFor(namespace: string): NamespaceAdapter | undefined {
  return NAMESPACE_ADAPTERS.find((a) => a.namespace === namespace)
}

/** The adapter a configured network belongs to: the one it carries (non-EVM networks), else a registered one. */
export function adapterOfNetwork(network: LatchNetwork): NamespaceAdapter {
  return network.adapter ?? NAMESPACE_ADAPTERS.find((a) => a.ownsNetwork(network)) ?? NAMESPACE_ADAPTERS[0]
}

/** The CAIP-2 id of a configured network (`eip155:1`), by its namespace's adapter. */
export function networkCaipId(network: LatchNetwork): string {
  return adapterOfNetwork(network).caipNetworkId(network)
}

/** The namespace of a CAIP-10 account id (`eip155:1:0x…` → `eip155`); the default adapter's when absent. */
export function accountNamespace(caipAddress: string | undefined): string {
  return caipAddress?.split(':')[0] || NAMESPACE_ADAPTERS[0].namespace
}

/** The configured networks an account (CAIP-10) is valid on; none for a namespace no adapter knows. */
export function networksForAccount(caipAddress: string | undefined, networks: readonly LatchNetwork[]): LatchNetwork[] {
  const address = caipAddress?.split(':')[2] ?? ''
  const namespace = accountNamespace(caipAddress)
  return (adapterFor(namespace) ?? networks.find((n) => n.adapter?.namespace === namespace)?.adapter)?.networksForAddress(address, networks) ?? []
}

/** Binds every registered adapter, and those the configured networks carry, to one instance. */
export function createNamespaceClients(context: NamespaceClientContext, networks: readonly LatchNetwork[] = []): Map<string, NamespaceClient> {
  return new Map([...NAMESPACE_ADAPTERS, ...networks.flatMap((n) => n.adapter ?? [])].map((a) => [a.namespace, a.createClient(context)]))
}
