// The names slice of an instance's root store: the profile names latchd knows
// for addresses, and where the visitor's registration stands (spec §4).
import { accountNamespace } from '../adapters/registry'
import type { Latch } from '../latch-types'
import { LATCH_VERSION } from '../latch'
import { mountSlice, sliceOf, type Store } from '../store'
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

/** namesSlice is the instance's names slice, mounted on first use. */
export function namesSlice(latch: Latch): Store<NamesState> {
  const { root } = latch._internal
  if (!root.getState().names) mountSlice(root, 'names', initialNamesState)
  return sliceOf(root, 'names') as Store<NamesState>
}

/** namesClient is a client of the instance's latchd profile routes. */
export function namesClient(latch: Latch): NamesClient {
  const { opts } = latch._internal
  return createNamesClient({ apiUrl: opts.apiUrl, projectId: opts.projectId, sdkVersion: `react-${LATCH_VERSION}` })
}

/** Whether the connected account may have names: only eip155 ones do (spec §9 namespace limits). */
export function accountHasNames(latch: Latch): boolean {
  return accountNamespace(latch.getState().account.caipAddress) === 'eip155'
}
