import type { Latch } from '../../latch-types'
import { namesFailure } from '../errors'
import { namesClient, namesSlice } from '../state'

/**
 * loadProfileName asks latchd for the name `address` holds in its zone and
 * keeps it in the names slice (null when it has none). These are latchd's own
 * names, so unlike ENS identity they are looked up on test networks too. A
 * failure rejects with latchd's reason, else "Error fetching names for address" (spec §8).
 */
export async function loadProfileName(latch: Latch, address: string, init?: { signal?: AbortSignal }): Promise<string | null> {
  let name: string | null
  try {
    const records = await namesClient(latch).reverse(address, init)
    name = records[0]?.name ?? null
  } catch (error) {
    throw namesFailure(error, latch.t('names.forAddressError'))
  }
  const slice = namesSlice(latch)
  slice.setState({ profileNames: { ...slice.getState().profileNames, [address.toLowerCase()]: name } })
  return name
}
