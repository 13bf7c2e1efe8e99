// The dialog's layout, checked by element boxes (not pixels): a stable top edge between views with an animated
// height, a bottom sheet on narrow screens, one balance format on the account button, the Account view and the
// token list, a toast that covers no button, Connect's "or" only between methods that show something, and a Connect button that does not claim "Connecting..." while a
// WalletConnect QR code is merely on offer. Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

async function openDemo(viewport) {
  const testPage = await harness.newPage();
  if (viewport) await testPage.page.setViewportSize(viewport);
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** The dialog's box once its height transition has ended. */
async function settledBox(page) {
  await page.waitForTimeout(400);
  const box = await page.getByTestId('latch-modal').boundingBox();
  assert.ok(box, 'the dialog has no box');
  return box;
}

async function connect(page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().waitFor();
}

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('desktop: the dialog keeps its top edge between views of different heights; the height is animated', async () => {
  const { page } = await openDemo();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-all-wallets-count').waitFor();
  const connectBox = await settledBox(page);
  await page.getByTestId('latch-what-is-a-wallet').click();
  await page.getByTestId('latch-view-WhatIsAWallet').waitFor();
  const helpBox = await settledBox(page);
  await page.getByTestId('latch-get-wallet').click();
  await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /MetaMask/ }).first().waitFor();
  const allBox = await settledBox(page);
  assert.ok(new Set([connectBox.height, helpBox.height, allBox.height].map(Math.round)).size > 1, 'the views should differ in height');
  for (const box of [helpBox, allBox]) assert.ok(Math.abs(box.y - connectBox.y) < 1, `the top edge moved: ${connectBox.y} → ${box.y}`);
  // Centred horizontally, anchored near the top (not centred vertically).
  const viewport = page.viewportSize();
  assert.ok(Math.abs(connectBox.x + connectBox.width / 2 - viewport.width / 2) < 2);
  assert.ok(connectBox.y < viewport.height * 0.2, `top edge at ${connectBox.y}`);
  // The content's height follows each view through a height transition.
  const transition = await page.getByTestId('latch-modal').locator('.latch-modal-content').evaluate((el) => {
    const style = getComputedStyle(el);
    return { property: style.transitionProperty, duration: style.transitionDuration, inline: el.style.height };
  });
  assert.match(transition.property, /height/);
  assert.equal(transition.duration, '0.15s');
  assert.match(transition.inline, /^\d+(\.\d+)?px$/);
});

test('narrow screen (390 px): the dialog is a bottom sheet, full width, on the bottom edge', async () => {
  const { page } = await openDemo({ width: 390, height: 844 });
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  const box = await settledBox(page);
  assert.equal(Math.round(box.width), 390);
  assert.equal(Math.round(box.x), 0);
  assert.ok(Math.abs(box.y + box.height - 844) < 1, `bottom edge at ${box.y + box.height}`);
  // Desktop width keeps the 360 px card.
  await page.setViewportSize({ width: 1280, height: 800 });
  const wide = await settledBox(page);
  assert.equal(Math.round(wide.width), 360);
});

test('one balance format: account button, Account view and token list show the same text', async () => {
  const { page } = await openDemo();
  await connect(page);
  const button = (await page.getByTestId('latch-account-button-balance').first().textContent())?.trim();
  assert.match(button ?? '', /^\d{1,3}(,\d{3})*\.\d{3} ETH$/);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-account-balance').filter({ hasText: button }).waitFor();
  const row = page.getByTestId('latch-token-ETH').getByTestId('latch-token-quantity');
  await row.waitFor();
  assert.equal((await row.textContent())?.trim(), button);
});

test('a toast takes its own place: it covers no button of the dialog', async () => {
  const { page, context } = await openDemo();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harness.latchd.info.demoUrl).origin });
  await connect(page);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-copy-address').click();
  const toast = page.getByTestId('latch-toast');
  await toast.waitFor();
  const toastBox = await toast.boundingBox();
  const buttons = await page.getByTestId('latch-modal').locator('button').all();
  assert.ok(buttons.length > 4);
  for (const button of buttons) {
    const box = await button.boundingBox();
    if (box && box.width > 0) assert.ok(!overlaps(toastBox, box), `the toast covers "${(await button.textContent())?.trim()}"`);
  }
  // Still inside the dialog.
  const dialog = await page.getByTestId('latch-modal').boundingBox();
  assert.ok(toastBox.y >= dialog.y && toastBox.y + toastBox.height <= dialog.y + dialog.height + 0.5);
});

test('Connect: an "or" shows only between two methods that show something, on every frame while the view loads', async () => {
  const { page } = await openDemo();
  // Watched from the click on, frame by frame, until the e-mail field, the socials and the wallets are all there.
  const watch = page.evaluate(
    () =>
      new Promise((resolve) => {
        /** @type {string[]} */
        const wrong = [];
        let frames = 0;
        const t0 = performance.now();
        const check = () => {
          if (performance.now() - t0 > 10_000) return resolve({ wrong: [...wrong, 'Connect did not show e-mail, socials and wallets within 10 s'], frames, ors: -1 });
          const view = document.querySelector('[data-testid="latch-view-Connect"]');
          if (view) {
            frames++;
            const shown = (/** @type {Element} */ el) => getComputedStyle(el).display !== 'none';
            const filled = [...view.querySelectorAll('.latch-connect-section')].filter((el) => el.childElementCount > 0 && shown(el)).length;
            const ors = [...view.querySelectorAll('.latch-connect-or')].filter(shown).length;
            if (ors !== Math.max(0, filled - 1)) wrong.push(`frame ${frames}: ${ors} "or" for ${filled} sections with content`);
            const done = view.querySelector('[data-testid="latch-email-input"]') && view.querySelector('[data-testid="latch-social-login"]');
            if (done && filled === 3) return resolve({ wrong, frames, ors });
          }
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
  await page.getByTestId('latch-connect-button').click();
  const result = /** @type {{wrong: string[], frames: number, ors: number}} */ (await watch);
  assert.deepEqual(result.wrong, [], `watched ${result.frames} frames`);
  assert.equal(result.ors, 2, 'e-mail, or, socials, or, wallets');
});

test('Connect button: no "Connecting..." while a WalletConnect QR code is only on offer', async () => {
  const { page } = await openDemo();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByTestId('latch-wallet-walletConnect').click();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  await page.waitForTimeout(300);
  assert.equal((await page.getByTestId('latch-connect-button').textContent())?.trim(), 'Connect Wallet');
});

test('a short window: a view taller than the dialog scrolls inside it, every row stays reachable', async () => {
  const { page } = await openDemo({ width: 1280, height: 560 });
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-all-wallets-count').waitFor();
  const dialog = await settledBox(page);
  const viewport = page.viewportSize();
  assert.ok(dialog.y + dialog.height <= viewport.height, `the dialog ends below the window: ${dialog.y + dialog.height} > ${viewport.height}`);
  const scroller = page.getByTestId('latch-modal').locator('.latch-modal-content > div');
  const { scrollHeight, clientHeight } = await scroller.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  assert.ok(scrollHeight > clientHeight, `Connect should be taller than a 560 px window allows (${scrollHeight} ≤ ${clientHeight})`);
  // The last row is reached by scrolling the dialog's content, and then lies inside the dialog.
  const last = page.getByTestId('latch-what-is-a-wallet');
  await last.scrollIntoViewIfNeeded();
  const box = await last.boundingBox();
  assert.ok(box && box.y >= dialog.y && box.y + box.height <= dialog.y + dialog.height + 1, `the last row is outside the dialog: ${JSON.stringify(box)}`);
  await last.click();
  await page.getByTestId('latch-view-WhatIsAWallet').waitFor();
});
