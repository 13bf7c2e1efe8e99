import { useEffect, useRef } from 'react'
import { useLatchInstance } from '../../context'
import { withActions } from './withActions'
import { useEmbeddedState } from './useEmbeddedState'

/** The height of the spot the frame is shown at: room for a decoded transaction and the frame's buttons. */
const FRAME_HEIGHT = 440

/**
 * ApproveTransaction: the spot where the embedded wallet's frame is shown
 * while it waits for the visitor. The frame, not this page, shows the request
 * (decoded) with its Reject and Approve, and signs only after the visitor's
 * own click there: this view only places the frame over its spot, follows it
 * as the modal moves, and hides it again. Leaving the view (closing the
 * modal) cancels the request.
 */
export default function ApproveTransactionView() {
  const latch = useLatchInstance()
  const state = useEmbeddedState()
  const waiting = Boolean(state?.approval)
  const slot = useRef<HTMLDivElement>(null)

  // Nothing waits any more (answered in the frame, or aborted): back to where the visitor was, or closed.
  useEffect(() => {
    const s = latch.getState()
    if (waiting || !s.open || s.view !== 'ApproveTransaction') return
    if (s.historyLength > 1) latch.goBack()
    else latch.close()
  }, [waiting, latch])

  // The frame over the spot (core moves it with the spot as the modal animates), until the answer.
  useEffect(() => {
    const spot = slot.current
    if (!waiting || !spot) return
    let stop: (() => void) | undefined
    let live = true
    void withActions(async (a) => {
      const hide = await a.showApprovalFrame(latch, spot)
      if (live) stop = hide
      else hide()
    })
    return () => {
      live = false
      stop?.()
    }
  }, [waiting, latch])

  // Closed or left without an answer in the frame: the request is cancelled (checked a task later, so that a
  // remount in place, as React's strict mode does, keeps it).
  useEffect(
    () => () => {
      setTimeout(() => {
        const s = latch.getState()
        if (!s.open || s.view !== 'ApproveTransaction') void withActions((a) => a.cancelApproval(latch))
      }, 0)
    },
    [latch],
  )

  return (
    <div className="latch-view latch-approve" data-testid="latch-view-ApproveTransaction">
      <div ref={slot} data-testid="latch-approve-frame-spot" style={{ height: FRAME_HEIGHT, display: 'grid', placeItems: 'center' }}>
        <span className="latch-spinner" aria-hidden="true" />
      </div>
    </div>
  )
}
