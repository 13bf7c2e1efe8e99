// The widget end to end: the demo dapp (web/apps/demo, built) served by a real
// `latchd dev`, the scripted EIP-6963 test wallet, Chromium. Build the web
// packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

/** Opens the demo with the test wallet installed and waits for the connect button. */
async function openDemo(pageOptions) {
  const testPage = await harness.newPage(pageOptions);
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

const truncated = (address) => `${address.slice(0, 4)}…${address.slice(-6)}`;

async function connect(page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
}

test('connect: Connect lists the test wallet; Account shows the address and the dev-chain balance', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  await page.getByTestId('latch-connect-button').click();
  const list = page.getByTestId('latch-view-Connect');
  await list.waitFor();
  await list.getByRole('button', { name: /Latch Test Wallet/ }).waitFor();
  await t.screenshot('connect-light');
  await list.getByRole('button', { name: /Latch Test Wallet/ }).click();

  const address = wallet.address;
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(address) }).waitFor();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').filter({ hasText: truncated(address) }).waitFor();
  // Account #0 holds 10000 ETH on a fresh dev chain (spec §9: truncated to 3 decimals, en-US grouping).
  await page.getByTestId('latch-account-balance').filter({ hasText: '10,000.000 ETH' }).waitFor();
  await t.screenshot('account-light');
});

test('reload: still connected, without a new wallet prompt', async () => {
  const { page, wallet } = await openDemo();
  await connect(page);
  await page.getByTestId('latch-account-button').first().waitFor();
  const prompts = wallet.prompts.length;
  await page.reload();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  assert.equal(wallet.prompts.length, prompts, 'reconnecting after reload must not prompt the wallet');
  assert.ok(!wallet.calls.slice(wallet.calls.lastIndexOf('eth_accounts')).includes('eth_requestAccounts'));
});

test('rejection: the error shows and retry connects', async () => {
  const { page, wallet } = await openDemo();
  wallet.rejectNext();
  await connect(page);
  await page.getByTestId('latch-connect-error').waitFor();
  await page.getByTestId('latch-connect-retry').click();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
});

test('disconnect: back to the connect button and the Connect view', async () => {
  const { page } = await openDemo();
  await connect(page);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-disconnect').click();
  await page.getByTestId('latch-connect-button').waitFor();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
});

test('AllWallets: search finds a wallet from latchd', async () => {
  const t = await openDemo();
  const { page } = t;
  await page.getByTestId('demo-open-all-wallets').click();
  await page.getByTestId('latch-view-AllWallets').waitFor();
  await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /MetaMask/ }).first().waitFor();
  await t.screenshot('all-wallets-light');
  await page.getByTestId('latch-all-wallets-search').fill('rainbow');
  await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /Rainbow/ }).first().waitFor();
});

test('themes: dark mode applies to the modal', async () => {
  const t = await openDemo();
  const { page } = t;
  await page.getByTestId('demo-toggle-theme').click();
  await page.getByTestId('latch-connect-button').click();
  const modal = page.locator('[data-latch][data-theme="dark"]').getByTestId('latch-view-Connect');
  await modal.waitFor();
  await t.screenshot('connect-dark');
  await page.getByRole('button', { name: /All wallets/ }).last().click();
  await page.getByTestId('latch-view-AllWallets').waitFor();
  await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /MetaMask/ }).first().waitFor();
  await t.screenshot('all-wallets-dark');
  await page.getByTestId('latch-modal-back').click();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await t.screenshot('account-dark');
});

test('keyboard only: connect with Tab and Enter, Escape closes', async () => {
  const { page, wallet } = await openDemo();
  await page.getByTestId('latch-connect-button').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.keyboard.press('Enter'); // focus returned to the connect button
  await page.getByTestId('latch-view-Connect').waitFor();
  let onWallet = false;
  for (let i = 0; i < 20 && !onWallet; i++) {
    await page.keyboard.press('Tab');
    onWallet = await page.evaluate(
      () => document.activeElement?.tagName === 'BUTTON' && /Latch Test Wallet/.test(document.activeElement.textContent ?? ''),
    );
  }
  assert.ok(onWallet, 'Tab never reached the test wallet');
  await page.keyboard.press('Enter');
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
});
