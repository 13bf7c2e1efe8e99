// Accessibility: axe-core (WCAG 2.0/2.1 A and AA rules) on every view of the dialog — every name in the core's
// VIEWS list — in the light and the dark theme, on the demo served by a real `latchd dev`. Each view is reached
// as a visitor reaches it (the test wallet, a held wallet prompt, the e-mail login with its device approval and
// code from latchd's dev outbox, a name registration, the wallet moving to a network the page does not list) and
// audited once in each theme, switched with latch.setThemeMode while it is on screen. Any serious or critical
// violation fails the test, and so does a view of VIEWS that no test audited in both themes: a view added later
// needs its audit here. Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { approvalShown, approveInFrame, rejectInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';
import { walletRequest } from '../wallet/wallet.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const demoDir = join(here, '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);
// The list the modal itself checks open({ view }) against, as built into the demo.
const viewsModule = join(here, '../../packages/core/dist/modal/views.js');
if (!existsSync(viewsModule)) throw new Error(`core not built: ${viewsModule} (npm run build in web/)`);
const { VIEWS } = /** @type {{VIEWS: readonly string[]}} */ (await import(pathToFileURL(viewsModule).href));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

/** @typedef {import('playwright-core').Page} Page */

const themes = /** @type {const} */ (['light', 'dark']);

/** Every `View (theme)` audited without a serious or critical violation. */
const audited = new Set();

/**
 * Opens the demo (`query` appended) with animations reduced to 1 ms.
 * @param {{query?: string, wallet?: false}} [options]  wallet: false leaves the test wallet out (e-mail wallet only)
 */
async function openDemo(options = {}) {
  const testPage = await harness.newPage(options.wallet === false ? { wallet: false } : {});
  await testPage.page.emulateMedia({ reducedMotion: 'reduce' });
  await testPage.page.goto(`${harness.latchd.info.demoUrl}${options.query ?? ''}`);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/**
 * Runs axe on the open dialog in the light and the dark theme and fails on serious or critical violations; the
 * dialog is left in the light theme. The dialog must show `view` (its data-view, the router's view).
 * @param {Page} page
 * @param {string} view
 * @param {string} [variant]  what of the view is on screen, for the failure message
 */
async function audit(page, view, variant) {
  const dialog = page.getByTestId('latch-modal');
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('data-view'), view, `the dialog shows ${view}${variant ? ` (${variant})` : ''}`);
  // The view's own content has settled (lazy chunks, images) once the page has been idle a moment.
  await page.waitForTimeout(300);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  for (const theme of themes) {
    await page.evaluate((mode) => /** @type {any} */ (window).latch.setThemeMode(mode), theme);
    await page.locator(`[data-latch][data-theme="${theme}"] [data-testid="latch-modal"]`).waitFor();
    const violations = await page.evaluate(async () => {
      // Two frames: the theme's variables are applied and painted before colours are read.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
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
    assert.deepEqual(serious, [], `${view}${variant ? ` (${variant})` : ''}, ${theme}: ${JSON.stringify(serious, null, 2)}`);
    // Still the same view: nothing moved on while axe ran.
    assert.equal(await dialog.getAttribute('data-view'), view);
    audited.add(`${view} (${theme})`);
  }
  await page.evaluate(() => /** @type {any} */ (window).latch.setThemeMode('light'));
}


/**
 * Gives the address 1 ETH on a dev network and waits until latchd's account API (what the Send form lists) lists it.
 * @param {string} address
 * @param {{chainId: number, caipNetworkId: string}} network
 */
async function fundWithEth(address, network) {
  const { apiUrl, info } = harness.latchd;
  const res = await fetch(`${apiUrl}/dev/faucet`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, caipNetworkId: network.caipNetworkId, amount: '1' }),
  });
  assert.equal(res.status, 200, await res.text());
  for (let i = 0; i < 300; i++) {
    const url = `${apiUrl}/v1/account/${address}/balance?projectId=${info.projectId}&chainId=eip155:${network.chainId}`;
    const { balances } = await (await fetch(url, { headers: { Origin: /** @type {string} */ (info.demoUrl).replace(/\/$/, '') } })).json();
    if (balances?.some((/** @type {{symbol: string}} */ b) => b.symbol === 'ETH')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`latchd never listed ETH at ${address}`);
}

test('axe, light and dark: Connect, WhatIsAWallet, AllWallets, the WalletConnect QR codes, the socials, Farcaster', async () => {
  const { page } = await openDemo();
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

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-social-more').click();
  await page.getByTestId('latch-connect-socials-view').waitFor();
  await audit(page, 'ConnectSocials');

  await page.getByTestId('latch-connect-socials-view').getByTestId('latch-social-farcaster').click();
  await page.getByTestId('latch-farcaster-view').getByTestId('latch-wc-qr-svg').waitFor();
  await audit(page, 'ConnectingFarcaster');

  // The demo's own button opens the QR-only view (AppKit's open({ view: 'ConnectingWalletConnectBasic' })).
  await page.getByTestId('latch-modal-close').click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.getByTestId('demo-open-walletconnect').click();
  await page.getByTestId('latch-view-ConnectingWalletConnectBasic').getByTestId('latch-wc-qr-svg').waitFor();
  await audit(page, 'ConnectingWalletConnectBasic');
});

test('axe, light and dark: Connect with the legal checkbox, unticked and ticked', async () => {
  const { page } = await openDemo({ query: '?legal=checkbox' });
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-legal-checkbox').waitFor();
  await audit(page, 'Connect', 'legal checkbox unticked');
  await page.getByTestId('latch-legal-checkbox').check();
  await audit(page, 'Connect', 'legal checkbox ticked');
});

test('axe, light and dark: ConnectingExternal, Account, Networks, WhatIsANetwork, Send and its review, Receive, Swap, ProfileWallets, the on-ramp, Pay, UnsupportedChain', async () => {
  const { page, wallet } = await openDemo();
  const { accounts } = harness.latchd.info;
  // The wallet's connection prompt stays open until the audit of the waiting view is done.
  const held = wallet.holdNext();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-view-ConnectingExternal').waitFor();
  assert.equal(wallet.prompts.length, 1, 'the wallet is asked to connect');
  await audit(page, 'ConnectingExternal');
  held.approve();

  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-balance').waitFor();
  await page.getByTestId('latch-token-USDC').waitFor();
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
  const eth = await page.locator('[data-testid="latch-send-token"] option', { hasText: /^ETH / }).first().textContent();
  await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (eth) });
  await page.getByTestId('latch-send-amount').fill('0.01');
  await page.getByTestId('latch-send-receiver').fill(accounts[2]);
  await audit(page, 'WalletSend', 'filled in');

  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-view-WalletSendPreview').getByTestId('latch-send-fee').filter({ hasText: /ETH/ }).waitFor();
  await audit(page, 'WalletSendPreview');

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-account-receive').click();
  await page.getByTestId('latch-view-WalletReceive').waitFor();
  await audit(page, 'WalletReceive');

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-account-swap').click();
  await page.getByTestId('latch-view-WalletSwap').waitFor();
  await page.locator('[data-testid="latch-swap-from"] option', { hasText: /^USDC/ }).waitFor({ state: 'attached' });
  await audit(page, 'WalletSwap');

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-account-wallets').click();
  await page.getByTestId('latch-view-ProfileWallets').getByTestId('latch-profile-wallet-active').waitFor();
  await audit(page, 'ProfileWallets');

  await page.getByTestId('latch-modal-close').click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.getByTestId('demo-open-buy').click();
  await page.getByTestId('latch-view-OnRampProviders').getByTestId('latch-onramp-limits').waitFor();
  await audit(page, 'OnRampProviders');

  await page.getByTestId('latch-modal-close').click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.getByTestId('demo-pay-recipient').fill(accounts[2]);
  await page.getByTestId('demo-pay-amount').fill('5');
  await page.getByTestId('demo-pay').click();
  await page.getByTestId('latch-view-Pay').getByTestId('latch-pay-balance').waitFor();
  await audit(page, 'Pay');
  await page.getByTestId('latch-pay-cancel').click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });

  // Chain 1337 is not among the demo's networks; the wallet adds it and moves to it (as MetaMask does).
  const devA = /** @type {{rpcUrl: string}} */ (harness.latchd.info.networks[0]);
  await walletRequest(page, {
    method: 'wallet_addEthereumChain',
    params: [{ chainId: '0x539', chainName: 'Elsewhere', rpcUrls: [devA.rpcUrl], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }],
  });
  await page.getByTestId('latch-view-UnsupportedChain').waitFor();
  await audit(page, 'UnsupportedChain');
});

test('axe, light and dark: SIWXSignMessage (sign-in required)', async () => {
  const { page } = await openDemo({ query: '?siwx=required' });
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-view-SIWXSignMessage').getByTestId('latch-siwx-title').waitFor();
  await audit(page, 'SIWXSignMessage');
});

test('axe, light and dark: the e-mail wallet — EmailVerifyDevice, EmailVerifyOtp, Account, UpdateEmail, RegisterAccountName, ApproveTransaction (a message, a transaction), RegisterAccountNameSuccess', async () => {
  const stamp = Date.now();
  const email = `a11y-${stamp}@example.com`;
  const { mail, approveDevice } = emailLogin(harness, email);
  const testPage = await openDemo({ wallet: false });
  const { page } = testPage;
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-email-input').fill(email);
  await page.getByTestId('latch-email-submit').click();
  // latchd knows no device of a new address: this one first waits for the approval link mailed to it.
  await page.getByTestId('latch-view-EmailVerifyDevice').getByTestId('latch-device-waiting').waitFor();
  await audit(page, 'EmailVerifyDevice');
  await approveDevice(/** @type {string} */ ((await mail('device', 0)).link));
  await page.getByTestId('latch-view-EmailVerifyOtp').getByTestId('latch-otp-input-0').waitFor();
  await audit(page, 'EmailVerifyOtp');
  const { code } = await mail('code', 1);
  await page.getByTestId('latch-otp-input-0').click();
  await page.keyboard.type(/** @type {string} */ (code));
  const connected = () => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected';
  await page.waitForFunction(connected);
  // ETH to send at the end, on the second dev network: the balances of the first, read at connect, are cached
  // (30 s, on latchd and in the page); the second's are read when the wallet moves there.
  const second = /** @type {{chainId: number, caipNetworkId: string}} */ (harness.latchd.info.networks[1]);
  await fundWithEth(JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent())).address, second);

  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-account-email').filter({ hasText: email }).waitFor();
  await page.getByTestId('latch-account-choose-name').waitFor();
  await audit(page, 'Account', 'the e-mail wallet');

  await page.getByTestId('latch-account-update-email').click();
  await page.getByTestId('latch-view-UpdateEmail').getByTestId('latch-update-email-input').waitFor();
  await audit(page, 'UpdateEmail');

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-account-choose-name').click();
  const register = page.getByTestId('latch-view-RegisterAccountName');
  const name = `a11y${stamp}`;
  await register.getByTestId('latch-register-name-input').fill(name);
  await register.getByTestId('latch-register-name-available').filter({ hasText: `${name}.latch.test is available` }).waitFor();
  await audit(page, 'RegisterAccountName');

  // The e-mail wallet asks the visitor to approve the registration's signature.
  await register.getByTestId('latch-register-name-submit').click();
  // The modal's part of it (the frame, another origin, shows the request: axe checks the page's document).
  await (await approvalShown(page)).getByTestId('latch-approve-message').waitFor();
  await audit(page, 'ApproveTransaction', 'a message to sign');
  await approveInFrame(page);
  await page.getByTestId('latch-view-RegisterAccountNameSuccess').getByTestId('latch-register-name-success').waitFor();
  await audit(page, 'RegisterAccountNameSuccess');

  // A transaction to approve: 0.01 ETH on the second network through the Send form; the visitor declines it.
  await page.getByTestId('latch-register-name-done').click();
  await page.getByTestId('latch-account-network').click();
  await page.getByTestId(`latch-network-${second.chainId}`).click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: /^1\.000 ETH$/ }).waitFor();
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  const eth = await page.locator('[data-testid="latch-send-token"] option', { hasText: /^ETH / }).first().textContent();
  await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (eth) });
  await page.getByTestId('latch-send-amount').fill('0.01');
  await page.getByTestId('latch-send-receiver').fill(harness.latchd.info.accounts[2]);
  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-send-confirm').click();
  await (await approvalShown(page)).getByTestId('latch-approve-fee').filter({ hasText: /\S/ }).waitFor();
  await audit(page, 'ApproveTransaction', 'a transaction');
  await rejectInFrame(page);
  await page.getByTestId('latch-view-ApproveTransaction').waitFor({ state: 'detached' });
});

test('axe ran on every view of VIEWS in both themes', () => {
  assert.ok(VIEWS.length > 0, `no views in ${viewsModule}`);
  const missing = VIEWS.flatMap((view) => themes.map((theme) => `${view} (${theme})`)).filter((key) => !audited.has(key));
  assert.deepEqual(missing, [], `not audited: ${missing.join(', ')}`);
});
