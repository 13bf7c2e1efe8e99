import type { Latch } from '../../latch-types'

/**
 * leaveNetworkViews runs after a successful switch from the Networks list: it
 * returns to the view the list was opened from, or closes when it was the
 * first view (AppKit's navigateAfterNetworkSwitch). UnsupportedChain is left
 * the same way.
 */
export function leaveNetworkViews(latch: Latch): void {
  const { modal, router } = latch._internal
  if (!modal.store.getState().open) return
  const { stack, view } = router.store.getState()
  if (view !== 'Networks' && view !== 'UnsupportedChain') return
  const first = stack.findIndex((r) => r.view === 'Networks' || r.view === 'UnsupportedChain')
  if (first >= 1) router.goBackToIndex(first - 1)
  else modal.close()
}
