import type { Latch } from '../../latch-types'
import type { AccountModule } from '../load'

/** getAccountModels is the account module once loadAccountModels has loaded it for this instance, else undefined. */
export function getAccountModels(latch: Latch): AccountModule | undefined {
  return latch._internal.account.module
}
