// The names slice of an instance's root store: the profile names latchd knows
// for addresses, and where the visitor's registration stands (spec §4).
import type { Latch } from '../latch-types'
import { LATCH_VERSION } from '../apiBase'
import { createNamesClient, type NamesClient } from './client'

/** Where a registration stands: loading, then signing, then registering (spec §4); idle before and after. */
export type RegisterStep = 'idle' | 'signing' | 'registering'

/** The names slice. */
export interface NamesState {
  /** Profile names by lower-cased address: the name, null when the address has none; absent until looked up. */
  readonly profileNames: Readonly<Record<string, string | null>>
  /** The registration in flight, if any. */
  readonly step: RegisterStep
}

const initialNamesState: NamesState = { profileNames: {}, step: 'idle' }

/** Reads and patches the names slice. */
export interface NamesSlice {
  getState(): NamesState
  setState(patch: Partial<NamesState>): void
}

/**
 * namesSlice is the instance's names slice of the root store, created on the
 * first write. Written on the root directly rather than through store.ts's
 * slice helpers, which are first-load code: importing them here would split
 * core's entry into shared chunks the page's first load then fetches.
 */
export function namesSlice(latch: Latch): NamesSlice {
  const { root } = latch._internal
  const getState = (): NamesState => root.getState().names ?? initialNamesState
  return { getState, setState: (patch) => root.setState({ names: { ...getState(), ...patch } }) }
}

/** namesClient is a client of the instance's latchd profile routes. */
export function namesClient(latch: Latch): NamesClient {
  const { opts } = latch._internal
  return createNamesClient({ apiUrl: opts.apiUrl, projectId: opts.projectId, sdkVersion: `react-${LATCH_VERSION}` })
}

/**
 * The namespace of the connected account's CAIP-10 id (`eip155:1:0x…` → `eip155`). Read here rather than through
 * adapters/registry, which is first-load code: importing it would split core's entry into shared chunks.
 */
export function accountNamespaceOf(latch: Latch): string | undefined {
  return latch.getState().account.caipAddress?.split(':')[0]
}

/**
 * Whether names are looked up for the connected account on the active network: only for eip155 accounts, and not on
 * test networks (spec §5) unless the app gave the network ENS contracts (`contracts.ensUniversalResolver`), as the dev
 * networks have: there names resolve through the deployment's zone, so the lookup means something. Elsewhere the profile
 * name is not asked for and not shown.
 */
export function accountHasNames(latch: Latch): boolean {
  if (accountNamespaceOf(latch) !== 'eip155') return false
  const network = latch.getState().activeNetwork
  return !network.testnet || Boolean(network.contracts?.ensUniversalResolver)
}

/**
 * Whether the connected account is the embedded (e-mail or social) wallet's: the auth connector, without which a name
 * cannot be registered (spec §5 'Address or auth connector not found').
 */
export function accountIsEmbedded(latch: Latch): boolean {
  const address = latch.getState().account.address?.toLowerCase()
  const user = latch._internal.root.getState().embedded?.user
  return Boolean(address && user && user.address.toLowerCase() === address)
}
