import type { Latch } from '../../latch-types'
import type { NameResolver } from '../resolver'

/** setNameResolver sets how this instance's send form resolves receiver names, instead of the default (ENS where a network has it). */
export function setNameResolver(latch: Latch, resolver: NameResolver): void {
  const slot = latch._internal.send
  slot.resolver = resolver
  slot.controller?.setResolver(resolver)
}
