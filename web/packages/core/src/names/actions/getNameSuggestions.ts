import type { Latch } from '../../latch-types'
import type { NameSuggestion } from '../client'
import { namesFailure } from '../errors'
import { accountNameError } from '../rules'
import { namesClient } from '../state'

/**
 * getNameSuggestions answers whether `label` is free, with free names like it
 * when it is taken (spec §3). A label that breaks a rule rejects with the
 * rule's message before asking latchd; a failure with latchd's reason, else
 * "Error fetching name suggestions" (spec §8).
 */
export async function getNameSuggestions(latch: Latch, label: string, init?: { signal?: AbortSignal }): Promise<NameSuggestion[]> {
  const broken = accountNameError(label)
  if (broken) throw new Error(broken)
  try {
    return await namesClient(latch).suggestions(label.trim().toLowerCase(), init)
  } catch (error) {
    throw namesFailure(error, latch.t('names.suggestionsError'))
  }
}
