import type { Latch } from '../../latch-types'
import type { NameRecord } from '../client'
import { namesFailure } from '../errors'
import { namesClient } from '../state'

/** lookupName is the record of a name of latchd's zone, or null when it is not registered; a failure rejects with latchd's reason, else "Error resolving name" (spec §8). */
export async function lookupName(latch: Latch, name: string, init?: { signal?: AbortSignal }): Promise<NameRecord | null> {
  try {
    return await namesClient(latch).lookup(name.trim().toLowerCase(), init)
  } catch (error) {
    throw namesFailure(error, latch.t('names.resolveError'))
  }
}
