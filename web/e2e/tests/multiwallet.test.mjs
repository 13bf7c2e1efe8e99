// Multi-wallet (issue 26) end to end: two EIP-6963 wallets on the demo page, both connected, listed in the
// ProfileWallets view (reached from Account), the active one switched, the pair kept across a reload, one
// disconnected while the other stays. Build the web packages and latchd's dev build first.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';
import { installSecondTestWallet, secondTestWallet } from '../wallet/wallet.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const firstId = 'dev.latch.testwallet';
const { rdns: secondId, name: secondName } = secondTestWallet;

/** @param {string} address */
const short = (address) => `${address.slice(0, 4)}…${address.slice(-6)}`;

test('two wallets connected: both in ProfileWallets, switch the active one, both kept across a reload, disconnect one', async () => {
  const testPage = await harness.newPage();
  const { page, wallet: first } = testPage;
  const second = await installSecondTestWallet(page, harness.latchd.info);
  assert.notEqual(first.address, second.address);
  await page.goto(harness.latchd.info.demoUrl);

  // The first wallet, as any visitor connects.
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), first.address);

  // Account → ProfileWallets → Add wallet → Connect: the second wallet, the first kept.
  await page.getByTestId('latch-account-wallets').click();
  const profile = page.getByTestId('latch-view-ProfileWallets');
  await profile.getByTestId(`latch-profile-wallet-${firstId}`).waitFor();
  await profile.getByRole('button', { name: 'Add wallet' }).click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: new RegExp(secondName) }).click();

  // The new wallet is the active one; both are listed.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').and(page.locator(`[title="${second.address}"]`)).waitFor();
  assert.ok(second.prompts.length > 0, 'the second wallet was asked to connect');
  assert.equal(await page.getByTestId('latch-account-wallets').textContent(), '2 wallets connected');
  await page.getByTestId('latch-account-wallets').click();
  const firstRow = profile.getByTestId(`latch-profile-wallet-${firstId}`);
  const secondRow = profile.getByTestId(`latch-profile-wallet-${secondId}`);
  await secondRow.getByTestId('latch-profile-wallet-active').waitFor();
  assert.equal(await firstRow.getByTestId('latch-profile-wallet-address').textContent(), short(first.address));
  assert.equal(await secondRow.getByTestId('latch-profile-wallet-address').textContent(), short(second.address));
  assert.equal(await firstRow.getByTestId('latch-profile-wallet-active').count(), 0);
  await testPage.screenshot('profile-wallets');

  // Switch: no prompt, the first wallet is active again and drives the account.
  const promptsBefore = first.prompts.length + second.prompts.length;
  await firstRow.getByRole('button', { name: 'Switch to Latch Test Wallet' }).click();
  await firstRow.getByTestId('latch-profile-wallet-active').waitFor();
  assert.equal(await secondRow.getByTestId('latch-profile-wallet-active').count(), 0);
  assert.equal(first.prompts.length + second.prompts.length, promptsBefore, 'switching prompted a wallet');
  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), first.address);

  // Reload: both connections come back silently, the first still active.
  await page.reload();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), first.address);
  await page.getByTestId('latch-account-wallets').click();
  await firstRow.getByTestId('latch-profile-wallet-active').waitFor();
  await secondRow.waitFor();
  assert.equal(first.prompts.length + second.prompts.length, promptsBefore, 'the reload prompted a wallet');

  // Disconnect the active one: the other stays connected and becomes active.
  await firstRow.getByRole('button', { name: 'Disconnect Latch Test Wallet' }).click();
  await firstRow.waitFor({ state: 'detached' });
  await secondRow.getByTestId('latch-profile-wallet-active').waitFor();
  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), second.address);
  assert.equal(await page.getByTestId('latch-account-wallets').textContent(), '1 wallet connected');
});
