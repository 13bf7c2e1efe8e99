import type { Latch, LatchView } from '../../latch-types'

/**
 * goBackTo returns the open modal to `view` in one step: the stack is cut
 * back to its last `view`, or, when `view` is not on it, replaced by it
 * (spec §4: after a token transfer the modal returns to Account). A closed
 * modal stays closed.
 */
export function goBackTo(latch: Latch, view: LatchView): void {
  const { modal, router } = latch._internal
  if (!modal.store.getState().open) return
  router.goBackTo(view)
}
