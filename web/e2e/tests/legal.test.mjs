// Legal consent in the browser: the terms and privacy links in Connect (demo ?legal=links), and with
// features.legalCheckbox (demo ?legal=checkbox) every way to connect stays disabled until the visitor ticks a
// real checkbox — by keyboard here. Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

async function openConnect(legal) {
  const testPage = await harness.newPage();
  const { page } = testPage;
  await page.goto(`${harness.latchd.info.demoUrl}?legal=${legal}`);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).waitFor();
  await page.getByTestId('latch-legal').waitFor();
  return testPage;
}

test('links: the terms and privacy links show in Connect, open in a new tab, and connecting needs no tick', async () => {
  const { page, wallet } = await openConnect('links');
  const origin = new URL(harness.latchd.info.demoUrl).origin;
  const legal = page.getByTestId('latch-legal');
  assert.equal((await legal.textContent())?.trim(), 'By connecting a wallet, you agree to the Terms of Service and Privacy Policy');
  const terms = legal.getByRole('link', { name: 'Terms of Service' });
  assert.equal(await terms.getAttribute('href'), `${origin}/terms`);
  assert.equal(await terms.getAttribute('target'), '_blank');
  assert.equal(await legal.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href'), `${origin}/privacy`);
  assert.equal(await page.getByRole('checkbox').count(), 0);
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().waitFor();
  assert.ok(wallet.prompts.length > 0, 'the wallet was not asked');
});

test('checkbox: wallet rows are aria-disabled and inert until the checkbox is ticked with the keyboard', async () => {
  const { page, wallet } = await openConnect('checkbox');
  const box = page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' });
  assert.equal(await box.isChecked(), false);
  const row = page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ });
  assert.equal(await row.getAttribute('aria-disabled'), 'true');
  assert.equal(await page.getByTestId('latch-all-wallets').getAttribute('aria-disabled'), 'true');
  // The e-mail field (the demo has the e-mail wallet) is disabled through its fieldset.
  const email = page.getByTestId('latch-email-input');
  if ((await email.count()) > 0) assert.equal(await email.isDisabled(), true);
  // A click on a disabled row (forced: Playwright itself waits for aria-disabled to go) and Enter on it do nothing.
  await row.click({ force: true });
  await row.focus();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.equal(wallet.prompts.length, 0, 'a disabled row asked the wallet');
  await page.getByTestId('latch-view-Connect').waitFor();
  // Keyboard: the links and the checkbox are reachable with Tab; Space ticks it.
  await box.focus();
  await page.keyboard.press('Space');
  assert.equal(await box.isChecked(), true);
  assert.equal(await row.getAttribute('aria-disabled'), null);
  if ((await email.count()) > 0) assert.equal(await email.isDisabled(), false);
  const terms = page.getByRole('link', { name: 'Terms of Service' });
  await terms.focus();
  assert.equal(await terms.evaluate((el) => el === document.activeElement), true);
  await row.click();
  await page.getByTestId('latch-account-button').first().waitFor();
});
