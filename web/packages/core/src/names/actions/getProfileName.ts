import type { Latch } from '../../latch-types'

/** getProfileName is the name latchd gave for `address` (loadProfileName or registerName), null when none, undefined until known. */
export function getProfileName(latch: Latch, address: string): string | null | undefined {
  return latch._internal.root.getState().names?.profileNames[address.toLowerCase()]
}
