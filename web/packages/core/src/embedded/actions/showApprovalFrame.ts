import type { Latch } from '../../latch-types'
import { requireEmbedded } from '../required'

/**
 * showApprovalFrame shows the embedded wallet's frame over spot (the
 * ApproveTransaction view's place for it), where the frame shows the request
 * waiting for the visitor with its own Reject and Approve. The frame follows
 * spot on every animation frame (the modal animates) until the returned
 * function is called, which hides it again.
 */
export async function showApprovalFrame(latch: Latch, spot: Element): Promise<() => void> {
  const frame = await requireEmbedded(latch).frame()
  let raf = 0
  let last = ''
  let stopped = false
  const follow = () => {
    if (stopped) return
    const r = spot.getBoundingClientRect()
    const at = `${r.top},${r.left},${r.width},${r.height}`
    if (at !== last) {
      last = at
      frame.place({ top: r.top, left: r.left, width: r.width, height: r.height })
    }
    raf = requestAnimationFrame(follow)
  }
  follow()
  return () => {
    stopped = true
    cancelAnimationFrame(raf)
    frame.place(undefined)
  }
}
