// Accessibility: axe-core (WCAG 2.0/2.1 A and AA rules) on every view of the open dialog a visitor reaches in
// the demo — Connect, WhatIsAWallet, All Wallets, the WalletConnect QR code, the legal checkbox, Account,
// Networks, WhatIsANetwork, Send, Receive, ProfileWallets — in the light and the dark theme. Any serious or critical violation
// fails the test. Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

/** Opens the demo (`query` appended), in the dark theme when asked, with animations reduced to 1 ms. */
async function openDemo(theme, query = '') {
  const testPage = await harness.newPage();
  const { page } = testPage;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${harness.latchd.info.demoUrl}${query}`);
  await page.getByTestId('latch-connect-button').waitFor();
  if (theme === 'dark') await page.getByTestId('demo-toggle-theme').click();
  return testPage;
}

/**
 * Runs axe on the open dialog and fails on serious or critical violations.
 * @param {import('playwright-core').Page} page
 * @param {string} label  the view, for the failure message
 */
async function audit(page, label) {
  const dialog = page.getByTestId('latch-modal');
  await dialog.waitFor();
  // The view's own content has settled (lazy chunks, images) once the page has been idle a moment.
  await page.waitForTimeout(300);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const result = await axe.run(document.querySelector('[data-testid="latch-modal"]'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${label}: ${JSON.stringify(serious, null, 2)}`);
  const theme = await page.locator('[data-latch][data-theme]').last().getAttribute('data-theme');
  audited.push(`${label} (${theme})`);
}

/** @type {string[]} */
const audited = [];

for (const theme of ['light', 'dark']) {
  test(`axe (${theme}): Connect, WhatIsAWallet, All Wallets, WalletConnect QR code`, async () => {
    const { page } = await openDemo(theme);
    await page.getByTestId('latch-connect-button').click();
    await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).waitFor();
    await page.getByTestId('latch-all-wallets-count').waitFor();
    await audit(page, 'Connect');

    await page.getByTestId('latch-what-is-a-wallet').click();
    await page.getByTestId('latch-view-WhatIsAWallet').waitFor();
    await audit(page, 'WhatIsAWallet');

    await page.getByTestId('latch-get-wallet').click();
    await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /MetaMask/ }).first().waitFor();
    await audit(page, 'AllWallets');

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-view-Connect').getByTestId('latch-wallet-walletConnect').click();
    await page.getByTestId('latch-wc-qr-svg').waitFor();
    await audit(page, 'ConnectingWalletConnect');
  });

  test(`axe (${theme}): the legal checkbox, unticked and ticked`, async () => {
    const { page } = await openDemo(theme, '?legal=checkbox');
    await page.getByTestId('latch-connect-button').click();
    await page.getByTestId('latch-legal-checkbox').waitFor();
    await audit(page, 'Connect with the legal checkbox');
    await page.getByTestId('latch-legal-checkbox').check();
    await audit(page, 'Connect with the legal checkbox ticked');
  });

  test(`axe (${theme}): Account, Networks, WhatIsANetwork, Send, Receive, ProfileWallets`, async () => {
    const { page } = await openDemo(theme);
    await page.getByTestId('latch-connect-button').click();
    await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
    await page.getByTestId('latch-account-button').first().click();
    await page.getByTestId('latch-view-Account').waitFor();
    await page.getByTestId('latch-account-balance').waitFor();
    await audit(page, 'Account');

    await page.getByTestId('latch-account-network').click();
    await page.getByTestId('latch-view-Networks').waitFor();
    await audit(page, 'Networks');

    await page.getByTestId('latch-what-is-a-network').click();
    await page.getByTestId('latch-view-WhatIsANetwork').waitFor();
    await audit(page, 'WhatIsANetwork');

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-account-send').click();
    await page.getByTestId('latch-view-WalletSend').waitFor();
    await audit(page, 'WalletSend');

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-account-receive').click();
    await page.getByTestId('latch-view-WalletReceive').waitFor();
    await audit(page, 'WalletReceive');

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-account-wallets').click();
    await page.getByTestId('latch-view-ProfileWallets').getByTestId('latch-profile-wallet-active').waitFor();
    await audit(page, 'ProfileWallets');
  });
}

test('axe ran on every view in both themes', () => {
  for (const theme of ['light', 'dark']) {
    for (const view of ['Connect', 'WhatIsAWallet', 'AllWallets', 'ConnectingWalletConnect', 'Connect with the legal checkbox', 'Account', 'Networks', 'WhatIsANetwork', 'WalletSend', 'WalletReceive', 'ProfileWallets']) {
      assert.ok(audited.includes(`${view} (${theme})`), `${view} (${theme}) was not audited: ${audited.join(', ')}`);
    }
  }
});
