// The embedded wallet's approval, as the visitor gives it: in the wallet's frame (shown over the modal's
// ApproveTransaction view), never on the page. Playwright's click inside the frame is a real (trusted) click,
// and it waits until the frame's Approve is enabled: the frame arms it once it has been visible for a moment.

/** @typedef {import('playwright-core').Page} Page */

/** The wallet frame's document. */
export function walletFrame(/** @type {Page} */ page) {
  return page.frameLocator('iframe#latch-frame');
}

/** Waits until the page shows ApproveTransaction and the frame shows the request; returns the frame. */
export async function approvalShown(/** @type {Page} */ page) {
  await page.getByTestId('latch-view-ApproveTransaction').waitFor();
  const frame = walletFrame(page);
  await frame.getByTestId('latch-approval').waitFor();
  return frame;
}

/** The visitor approves the request the frame shows. */
export async function approveInFrame(/** @type {Page} */ page) {
  const frame = await approvalShown(page);
  await frame.getByTestId('latch-approve-approve').click();
}

/**
 * The visitor rejects the request the frame shows, once Approve is armed: the frame has then been visible and in
 * place for a moment, so the modal's opening (which moves the frame) is over and the click lands where it was aimed
 * (a click during it could land beside the frame, on the page: the request then stayed open under load).
 */
export async function rejectInFrame(/** @type {Page} */ page) {
  const frame = await approvalShown(page);
  await frame.locator('[data-testid="latch-approve-approve"]:enabled').waitFor();
  await frame.getByTestId('latch-approve-reject').click();
}
