import type { Latch } from '../../latch-types'
import { requireEmbedded } from '../required'

/**
 * cancelApproval ends the requests the frame shows the visitor, when they
 * leave ApproveTransaction without answering in the frame (the modal closed,
 * another view): they fail with 'Request was aborted'. The page can only
 * cancel: the visitor approves in the frame, never through the page.
 */
export async function cancelApproval(latch: Latch): Promise<void> {
  const wallet = requireEmbedded(latch)
  if (!wallet.store.getState().approval) return
  ;(await wallet.frame()).abort()
}
