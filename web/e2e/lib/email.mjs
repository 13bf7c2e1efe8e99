// The e-mail wallet's login as a visitor does it, for browser tests: the code
// and device-approval mails are read from latchd dev's outbox (/dev/outbox).
import { strict as assert } from 'node:assert';

/** @typedef {import('playwright-core').Page} Page */

/**
 * E-mail logins of one address against the harness's latchd.
 * @param {ReturnType<typeof import('./harness.mjs').useHarness>} harness
 * @param {string} email
 */
export function emailLogin(harness, email) {
  /**
   * The newest outbox mail of a kind to the address, newer than `after` mails.
   * @param {'code' | 'device' | 'email-change'} kind
   * @param {number} after  how many mails the address had before
   * @returns {Promise<{kind: string, code?: string, link?: string}>}
   */
  async function mail(kind, after) {
    for (let i = 0; i < 200; i++) {
      const { messages } = await (await fetch(`${harness.latchd.apiUrl}/dev/outbox?to=${encodeURIComponent(email)}`)).json();
      if (messages.length > after && messages[0].kind === kind) return messages[0];
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${kind} mail to ${email}`);
  }

  async function mailCount() {
    const { messages } = await (await fetch(`${harness.latchd.apiUrl}/dev/outbox?to=${encodeURIComponent(email)}`)).json();
    return messages.length;
  }

  /** Opens the approval link of a device mail in a page of its own and approves. */
  async function approveDevice(/** @type {string} */ link) {
    const approver = await harness.browser.newPage();
    await approver.page.goto(link);
    await approver.page.getByTestId('latch-approve-button').click();
    await approver.page.getByText(/approved/i).first().waitFor();
  }

  /**
   * Logs in through the e-mail field: a device approval when latchd asks for one, then the mailed code,
   * typed digit by digit or pasted.
   * @param {Page} page
   * @param {{paste?: boolean, expectDevice?: boolean}} [options]
   */
  async function login(page, options = {}) {
    const before = await mailCount();
    await page.getByTestId('latch-connect-button').click();
    await page.getByTestId('latch-view-Connect').waitFor();
    await page.getByTestId('latch-email-input').fill(email);
    await page.getByTestId('latch-email-submit').click();
    const next = page.locator('[data-testid="latch-view-EmailVerifyDevice"], [data-testid="latch-view-EmailVerifyOtp"], [data-testid="latch-email-error"]');
    await next.first().waitFor();
    const cooldown = page.getByTestId('latch-email-error');
    if (await cooldown.count()) {
      // latchd's resend cooldown for this address (spec §5): wait it out, then ask again.
      const text = /** @type {string} */ (await cooldown.textContent());
      const match = /^Please try again after (\d+) seconds$/.exec(text);
      assert.ok(match, `e-mail error: ${text}`);
      await new Promise((r) => setTimeout(r, (Number(match[1]) + 1) * 1000));
      await page.getByTestId('latch-email-submit').click();
      await page.locator('[data-testid="latch-view-EmailVerifyDevice"], [data-testid="latch-view-EmailVerifyOtp"]').first().waitFor();
    }
    const view = (await page.getByTestId('latch-view-EmailVerifyDevice').count()) ? 'device' : 'otp';
    if (options.expectDevice !== undefined) assert.equal(view === 'device', options.expectDevice, `device approval asked: ${view}`);
    let seen = before;
    if (view === 'device') {
      const device = await mail('device', before);
      seen = before + 1;
      await approveDevice(/** @type {string} */ (device.link));
      await page.getByTestId('latch-view-EmailVerifyOtp').waitFor();
    }
    const { code } = await mail('code', seen);
    assert.match(/** @type {string} */ (code), /^\d{6}$/);
    if (options.paste) {
      await page.getByTestId('latch-otp-input-0').evaluate((el, text) => {
        const data = new DataTransfer();
        data.setData('text', text);
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, /** @type {string} */ (code));
    } else {
      await page.getByTestId('latch-otp-input-0').click();
      await page.keyboard.type(/** @type {string} */ (code));
    }
    await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
    return /** @type {string} */ (JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent())).address);
  }

  return { login, mail, mailCount, approveDevice };
}
