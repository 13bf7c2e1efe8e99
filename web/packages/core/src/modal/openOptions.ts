// What open() accepts, checked when it is called (the work itself may wait for an on-demand chunk).
import { adapterOfNetwork } from '../adapters/registry'
import type { Latch, OpenOptions } from '../latch-types'
import { VIEWS } from './router'

/** Thrown by open() for a view or namespace Latch does not have; the message names it. */
export class LatchOpenError extends Error {
  override name = 'LatchOpenError'
}

/**
 * checkOpenOptions refuses (throwing LatchOpenError), before anything happens, a view Latch does not have or a namespace none of the
 * configured networks is in.
 */
export function checkOpenOptions(latch: Latch, options: OpenOptions | undefined): void {
  if (options?.view !== undefined && !(VIEWS as readonly string[]).includes(options.view)) {
    throw new LatchOpenError(`open: unknown view "${String(options.view)}"; one of ${VIEWS.join(', ')}`)
  }
  const ns = options?.namespace
  if (ns !== undefined && !latch._internal.networks.some((n) => adapterOfNetwork(n).namespace === ns)) {
    const known = [...new Set(latch._internal.networks.map((n) => adapterOfNetwork(n).namespace))]
    throw new LatchOpenError(`open: no configured network is in namespace "${String(ns)}"; configured: ${known.join(', ')}`)
  }
}
