// The on-ramp and latch.pay end to end (issue 22): the demo dapp served by a
// real `latchd dev`, whose dev on-ramp provider quotes from the dev price
// feeds and serves its own checkout page; the scripted test wallet; Chromium.
// Balances are read on the chain itself (JSON-RPC to the dev node) and in the
// widget. Build the web packages and bin/latchd-dev first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, erc20Abi, formatUnits, http } from 'viem';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;

/** The dev chain, read directly (not through latchd). */
function chain() {
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network, 'dev network 31337');
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  const usdc = /** @type {`0x${string}`} */ (harness.latchd.info.tokens[`eip155:${devA}`].USDC.address);
  return {
    client,
    usdcOf: (/** @type {string} */ address) =>
      client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [/** @type {`0x${string}`} */ (address)] }),
  };
}

/** 1,000,049.500 USDC: the Tokens tab's quantity (3 decimals, en-US). */
const quantity = (/** @type {bigint} */ base) =>
  `${Number(formatUnits(base, 6)).toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 })} USDC`;

async function openDemo() {
  const testPage = await harness.newPage();
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Connects the test wallet (dev account #0); the modal closes on connect. */
async function connect(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().waitFor();
}

/**
 * Pays in the dev checkout popup with the test card and waits until the
 * widget, seeing the order completed, closes it.
 * @param {Promise<import('playwright-core').Page>} popupPromise
 */
async function payInCheckout(popupPromise) {
  const popup = await popupPromise;
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByTestId('latch-dev-checkout-card').fill('4242 4242 4242 4242');
  await popup.getByTestId('latch-dev-checkout-pay').click();
  await closed;
}

test('buy 50 USDC with the dev provider: the quoted amount arrives on the chain and in the widget', async () => {
  const t = await openDemo();
  const { page } = t;
  const me = harness.latchd.info.accounts[0];
  const rpc = chain();
  const before = await rpc.usdcOf(me);
  await connect(page);

  await page.getByTestId('demo-open-buy').click();
  const view = page.getByTestId('latch-view-OnRampProviders');
  await view.waitFor();
  assert.equal(await view.getByTestId('latch-onramp-limits').textContent(), 'From 10.00 to 7500.00 USD');
  assert.equal(await view.getByTestId('latch-onramp-network').inputValue(), `eip155:${devA}`);
  await view.getByTestId('latch-onramp-amount').fill('50');
  // The dev feed prices USDC at 1.00 USD and the dev provider takes 1%.
  const quote = view.getByTestId('latch-onramp-quote');
  await quote.filter({ hasText: 'You get 49.500000 USDC' }).waitFor();
  await t.screenshot('onramp-quote-light');

  const popup = page.waitForEvent('popup');
  await view.getByTestId('latch-onramp-buy').click();
  await payInCheckout(popup);
  await view.getByTestId('latch-onramp-status').filter({ hasText: '49.500000 USDC bought' }).waitFor();
  assert.equal(await rpc.usdcOf(me), before + 49_500_000n);

  // On Account, the Tokens tab shows the new balance.
  await page.keyboard.press('Escape');
  await view.waitFor({ state: 'detached' });
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: quantity(before + 49_500_000n) }).waitFor({ timeout: 15_000 });
});

test("a refused amount shows the method's limits as its message and cannot be bought", async () => {
  const t = await openDemo();
  const { page } = t;
  await connect(page);
  await page.getByTestId('demo-open-buy').click();
  const view = page.getByTestId('latch-view-OnRampProviders');
  await view.waitFor();
  for (const amount of ['5', '7500.01']) {
    await view.getByTestId('latch-onramp-amount').fill(amount);
    await view.getByTestId('latch-onramp-error').filter({ hasText: 'Amount must be between 10.00 and 7500.00 USD for card' }).waitFor();
    assert.equal(await view.getByTestId('latch-onramp-buy').isEnabled(), false);
  }
  // ACH bank account has its own limits.
  await view.getByTestId('latch-onramp-method').selectOption('ach_bank_account');
  await view.getByTestId('latch-onramp-amount').fill('25000.01');
  await view.getByTestId('latch-onramp-error').filter({ hasText: 'Amount must be between 10.00 and 25000.00 USD for ACH bank account' }).waitFor();
  await view.getByTestId('latch-onramp-amount').fill('1.2.3');
  await view.getByTestId('latch-onramp-error').filter({ hasText: 'Number `1.2.3` is not a valid decimal number.' }).waitFor();
  await t.screenshot('onramp-refused-light');
});

test('latch.pay 5 USDC to account #2 resolves with a hash that is on the chain', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  const { accounts } = harness.latchd.info;
  const rpc = chain();
  const before = await rpc.usdcOf(accounts[2]);
  await connect(page);

  await page.getByTestId('demo-pay-recipient').fill(accounts[2]);
  await page.getByTestId('demo-pay-amount').fill('5');
  await page.getByTestId('demo-pay').click();
  const view = page.getByTestId('latch-view-Pay');
  await view.waitFor();
  assert.equal(await view.getByTestId('latch-pay-summary').textContent(), 'Pay 5 USDC');
  await view.getByTestId('latch-pay-balance').waitFor();
  await t.screenshot('pay-light');
  await view.getByTestId('latch-pay-submit').click();

  const shown = page.getByTestId('demo-pay-hash');
  await shown.waitFor({ timeout: 30_000 });
  const hash = /** @type {`0x${string}`} */ ((await shown.textContent())?.replace('Paid: ', ''));
  assert.match(hash, /^0x[0-9a-f]{64}$/);
  const receipt = await rpc.client.getTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success');
  assert.equal(await rpc.usdcOf(accounts[2]), before + 5_000_000n);
  assert.deepEqual(wallet.prompts.filter((p) => p.method === 'eth_sendTransaction').map((p) => p.decision), ['approved']);
  await page.getByTestId('demo-pay-result').filter({ hasText: `5 USDC to ${accounts[2]}` }).waitFor();
});

test('pay with too little balance offers the buy step, then completes', async () => {
  const t = await openDemo();
  const { page } = t;
  const { accounts } = harness.latchd.info;
  const rpc = chain();
  const mine = await rpc.usdcOf(accounts[0]);
  const theirs = await rpc.usdcOf(accounts[3]);
  // 3 USDC more than the wallet holds.
  const amount = formatUnits(mine + 3_000_000n, 6);
  await connect(page);

  await page.getByTestId('demo-pay-recipient').fill(accounts[3]);
  await page.getByTestId('demo-pay-amount').fill(amount);
  await page.getByTestId('demo-pay').click();
  const view = page.getByTestId('latch-view-Pay');
  await view.getByTestId('latch-pay-missing').filter({ hasText: 'You need 3 USDC more' }).waitFor();
  assert.equal(await view.getByTestId('latch-pay-submit').isEnabled(), false);
  await t.screenshot('pay-insufficient-light');

  // The buy step: the on-ramp's minimum (10.00 USD) buys 9.9 USDC, enough for the 3 missing.
  const popup = page.waitForEvent('popup');
  await view.getByTestId('latch-pay-buy').click();
  await payInCheckout(popup);
  await view.getByTestId('latch-pay-balance').filter({ hasText: `Your balance: ${formatUnits(mine + 9_900_000n, 6)} USDC` }).waitFor({ timeout: 15_000 });
  assert.equal(await rpc.usdcOf(accounts[0]), mine + 9_900_000n);

  await view.getByTestId('latch-pay-submit').click();
  const shown = page.getByTestId('demo-pay-hash');
  await shown.waitFor({ timeout: 30_000 });
  const hash = /** @type {`0x${string}`} */ ((await shown.textContent())?.replace('Paid: ', ''));
  assert.equal((await rpc.client.getTransactionReceipt({ hash })).status, 'success');
  assert.equal(await rpc.usdcOf(accounts[3]), theirs + mine + 3_000_000n);
  assert.equal(await rpc.usdcOf(accounts[0]), 6_900_000n);
});
