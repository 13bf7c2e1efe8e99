import type { Latch } from '../../latch-types'
import { unsupportedChainRequired } from './unsupportedChainRequired'

/**
 * unsupportedChainChanged reacts to a change of the wallet's unconfigured
 * chain (spec §2). Like AppKit it opens UnsupportedChain once per change, so
 * closing it while still unsupported does not bring it back; back on a
 * configured chain the view has nothing left to say and closes.
 */
export function unsupportedChainChanged(latch: Latch, chainId: number | undefined): void {
  const { modal, router } = latch._internal
  if (chainId === undefined) {
    if (modal.store.getState().open && router.store.getState().view === 'UnsupportedChain') modal.close()
    return
  }
  if (!unsupportedChainRequired(latch, chainId)) return
  if (modal.store.getState().open) router.reset('UnsupportedChain')
  else void modal.open({ view: 'UnsupportedChain' })
}
