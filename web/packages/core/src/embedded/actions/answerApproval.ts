import type { Latch } from '../../latch-types'
import { requireEmbedded } from '../required'

/**
 * answerApproval gives the visitor's answer to the request ApproveTransaction
 * shows: the frame signs only after approved = true; a rejection makes the
 * request fail with 'Signature declined' (code 4001). The view then leaves.
 */
export async function answerApproval(latch: Latch, approved: boolean): Promise<void> {
  const wallet = requireEmbedded(latch)
  const request = wallet.store.getState().approval
  if (!request) return
  wallet.store.setState({ approval: undefined })
  const { router, modal } = latch._internal
  if (router.store.getState().stack.length > 1) router.goBack()
  else modal.close()
  await (await wallet.frame()).approve(request.requestId, approved)
}
