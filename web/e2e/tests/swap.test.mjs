// Swap through the widget end to end (issue 21, spec §2 swaps panel): the demo
// dapp served by a real `latchd dev`, the scripted test wallet (dev account
// #0), Chromium, and latchd's own AMM on the dev chain. Balances are checked on
// the chain itself (JSON-RPC to the dev node) and in the widget. Build the web
// packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, erc20Abi, http } from 'viem';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;

/** The dev chain, read directly (not through latchd). */
function chain() {
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network, 'dev network 31337');
  assert.match(network.swapRouter, /^0x[0-9a-fA-F]{40}$/);
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  const tokens = harness.latchd.info.tokens[`eip155:${devA}`];
  const of = (/** @type {string} */ symbol) => (/** @type {string} */ address) =>
    client.readContract({ address: /** @type {`0x${string}`} */ (tokens[symbol].address), abi: erc20Abi, functionName: 'balanceOf', args: [/** @type {`0x${string}`} */ (address)] });
  return {
    router: /** @type {`0x${string}`} */ (network.swapRouter),
    usdcOf: of('USDC'),
    wethOf: of('WETH'),
    allowance: (/** @type {string} */ owner) =>
      client.readContract({ address: /** @type {`0x${string}`} */ (tokens.USDC.address), abi: erc20Abi, functionName: 'allowance', args: [/** @type {`0x${string}`} */ (owner), /** @type {`0x${string}`} */ (network.swapRouter)] }),
  };
}

/** Connects the test wallet, opens Account, then the swap panel from the Tokens tab. */
async function openSwap(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-account-swap').click();
  await page.getByTestId('latch-view-WalletSwap').waitFor();
  await page.locator('[data-testid="latch-swap-from"] option', { hasText: /^USDC/ }).waitFor({ state: 'attached' });
}

/** Picks `from` and `to` by symbol, types the amount and waits for the quote; returns the quoted output in base units. */
async function quote(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ from, /** @type {string} */ to, /** @type {string} */ amount) {
  const label = async (/** @type {string} */ id, /** @type {string} */ symbol) =>
    /** @type {string} */ (await page.locator(`[data-testid="${id}"] option`, { hasText: new RegExp(`^${symbol}( |$)`) }).textContent());
  await page.getByTestId('latch-swap-to').selectOption({ label: await label('latch-swap-to', to) });
  await page.getByTestId('latch-swap-from').selectOption({ label: await label('latch-swap-from', from) });
  await page.getByTestId('latch-swap-amount').fill(amount);
  const out = page.getByTestId('latch-swap-out');
  await page.waitForFunction(() => document.querySelector('[data-testid="latch-swap-out"]')?.getAttribute('data-amount'), undefined, { timeout: 15_000 });
  return BigInt(/** @type {string} */ (await out.getAttribute('data-amount')));
}

test('swaps 100 USDC for WETH twice: balances move by the quote within slippage, the approval is asked once, Activity shows the trades', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  const me = harness.latchd.info.accounts[0];
  const rpc = chain();
  const before = { usdc: await rpc.usdcOf(me), weth: await rpc.wethOf(me) };
  assert.equal(await rpc.allowance(me), 0n);

  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-token-USDC').waitFor();
  await openSwap(page);

  // First swap: the router may take nothing yet, so the wallet is asked to approve, then to swap.
  let quoted = await quote(page, 'USDC', 'WETH', '100');
  // 100 USDC into 3,000,000 USDC / 1,000 WETH at 0.3%: about 0.0332 WETH.
  assert.ok(quoted > 33_000_000_000_000_000n && quoted < 33_400_000_000_000_000n, `quote ${quoted}`);
  assert.match(/** @type {string} */ (await page.getByTestId('latch-swap-route').textContent()), /USDC → WETH/);
  assert.match(/** @type {string} */ (await page.getByTestId('latch-swap-fee').textContent()), /^Network fee: up to [\d.]+ ETH \(\$\d[\d,]*\.\d\d\)$/);
  assert.equal(await page.getByTestId('latch-swap-submit').textContent(), 'Approve USDC and swap');
  await t.screenshot('swap-quote-light');
  await page.getByTestId('latch-swap-submit').click();
  await page.getByTestId('latch-swap-success').waitFor({ timeout: 30_000 });
  await page.getByTestId('latch-toast').filter({ hasText: /^Swapped 100 USDC for / }).waitFor();
  let sends = wallet.prompts.filter((p) => p.method === 'eth_sendTransaction');
  assert.equal(sends.length, 2, 'approve, then swap');
  assert.equal(sends[0].params?.[0]?.to?.toLowerCase(), harness.latchd.info.tokens[`eip155:${devA}`].USDC.address.toLowerCase());
  assert.equal(sends[1].params?.[0]?.to?.toLowerCase(), rpc.router.toLowerCase());
  const mid = { usdc: await rpc.usdcOf(me), weth: await rpc.wethOf(me) };
  assert.equal(before.usdc - mid.usdc, 100_000_000n);
  const got = mid.weth - before.weth;
  // Nobody else trades on the dev chain: the fill is the quote, and in any case within the 1% slippage.
  assert.ok(got <= quoted && got >= (quoted * 99n) / 100n, `received ${got}, quoted ${quoted}`);
  assert.ok((await rpc.allowance(me)) > 10n ** 70n, 'the approval is the maximum');

  // Second swap: the allowance is there, so only the swap is asked for.
  quoted = await quote(page, 'USDC', 'WETH', '100');
  assert.equal(await page.getByTestId('latch-swap-submit').textContent(), 'Swap');
  await page.getByTestId('latch-swap-submit').click();
  await page.getByTestId('latch-swap-success').waitFor({ timeout: 30_000 });
  sends = wallet.prompts.filter((p) => p.method === 'eth_sendTransaction');
  assert.equal(sends.length, 3, 'no second approval');
  const after = { usdc: await rpc.usdcOf(me), weth: await rpc.wethOf(me) };
  assert.equal(mid.usdc - after.usdc, 100_000_000n);
  const got2 = after.weth - mid.weth;
  assert.ok(got2 <= quoted && got2 >= (quoted * 99n) / 100n, `received ${got2}, quoted ${quoted}`);

  // The widget's balances follow: 999,800.000 USDC.
  await page.getByTestId('latch-swap-balance').filter({ hasText: 'Balance: 999,800.000 USDC' }).waitFor({ timeout: 15_000 });

  // Activity shows the trades.
  await page.getByTestId('latch-modal-back').click().catch(() => {});
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-tab-activity').click();
  const trades = page.locator('[data-testid="latch-activity-item"][data-type="trade"]');
  await trades.nth(1).waitFor({ timeout: 15_000 });
  assert.match(/** @type {string} */ (await trades.first().textContent()), /Swapped/);
  await t.screenshot('swap-activity-light');
});

test("open({ view: 'WalletSwap', arguments }) starts the panel from the named tokens and amount; a token the network lacks or a bad amount rejects", async () => {
  const { page } = await openDemo();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().waitFor();
  const open = (/** @type {Record<string, unknown>} */ args) =>
    page.evaluate((a) => /** @type {any} */ (window).latch.open({ view: 'WalletSwap', arguments: a }).then(() => 'opened', (/** @type {Error} */ e) => `${e.name}: ${e.message}`), args);

  // Symbols in any case; the panel starts from them and quotes at once.
  assert.equal(await open({ fromToken: 'weth', toToken: 'USDC', amount: '0.01' }), 'opened');
  await page.getByTestId('latch-view-WalletSwap').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="latch-swap-out"]')?.getAttribute('data-amount'), undefined, { timeout: 15_000 });
  const selected = async (/** @type {string} */ id) => page.getByTestId(id).evaluate((el) => /** @type {HTMLSelectElement} */ (el).selectedOptions[0]?.textContent ?? '');
  assert.match(await selected('latch-swap-from'), /^WETH/);
  assert.match(await selected('latch-swap-to'), /^USDC/);
  assert.equal(await page.getByTestId('latch-swap-amount').inputValue(), '0.01');
  assert.match(/** @type {string} */ (await page.getByTestId('latch-swap-route').textContent()), /WETH → USDC/);
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-view-WalletSwap').waitFor({ state: 'detached' });

  // Only fromToken: the other side is the native coin's default; a token by its address works too.
  const usdc = harness.latchd.info.tokens[`eip155:${devA}`].USDC.address;
  assert.equal(await open({ fromToken: usdc }), 'opened');
  await page.getByTestId('latch-view-WalletSwap').waitFor();
  await page.waitForFunction(() => /** @type {HTMLSelectElement | null} */ (document.querySelector('[data-testid="latch-swap-from"]'))?.selectedOptions[0]?.textContent?.startsWith('USDC'));
  assert.doesNotMatch(await selected('latch-swap-to'), /^USDC/);
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-view-WalletSwap').waitFor({ state: 'detached' });

  // The developer's mistakes are refused and nothing opens.
  assert.match(await open({ fromToken: 'DOGE', toToken: 'USDC' }), /^LatchOpenError: open: WalletSwap's fromToken "DOGE" is not a swap token on .+; one of ETH, .*USDC/);
  assert.equal(await open({ amount: '-1' }), 'LatchOpenError: open: WalletSwap\'s amount must be a positive decimal number, not "-1"');
  assert.equal(await open({ toToken: 5 }), 'LatchOpenError: open: WalletSwap\'s toToken must be a token symbol or address, not 5');
  assert.equal(await page.getByTestId('latch-view-WalletSwap').count(), 0);
});

test('price impact warns above 3% and blocks above 15%; a bad amount is named; a swap declined in the wallet moves nothing', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  const me = harness.latchd.info.accounts[0];
  const rpc = chain();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-token-USDC').waitFor();
  await openSwap(page);

  // 200,000 USDC into the 3,000,000 USDC pool: about 6% impact, a warning; the swap stays possible.
  await quote(page, 'USDC', 'WETH', '200000');
  await page.getByTestId('latch-swap-impact-warning').waitFor();
  assert.match(/** @type {string} */ (await page.getByTestId('latch-swap-impact').textContent()), /^Price impact: [5-7]\.\d\d%$/);
  assert.equal(await page.getByTestId('latch-swap-submit').isEnabled(), true);
  // 900,000 USDC: above 15%, refused before the wallet is asked.
  await quote(page, 'USDC', 'WETH', '900000');
  await page.getByTestId('latch-swap-impact-blocked').waitFor();
  assert.equal(await page.getByTestId('latch-swap-submit').isEnabled(), false);
  await t.screenshot('swap-impact-blocked-light');

  await page.getByTestId('latch-swap-amount').fill('abc');
  await page.getByTestId('latch-swap-error').filter({ hasText: 'Enter an amount' }).waitFor();

  // ETH in needs no approval: one prompt, declined; the chain is unchanged and the panel says so.
  const before = { usdc: await rpc.usdcOf(me), prompts: wallet.prompts.length };
  await quote(page, 'ETH', 'USDC', '0.5');
  assert.equal(await page.getByTestId('latch-swap-submit').textContent(), 'Swap');
  wallet.rejectNext('eth_sendTransaction');
  await page.getByTestId('latch-swap-submit').click();
  await page.getByTestId('latch-swap-failed').filter({ hasText: /rejected/i }).waitFor({ timeout: 15_000 });
  const asked = wallet.prompts.slice(before.prompts);
  assert.deepEqual(asked.map((p) => [p.method, p.decision]), [['eth_sendTransaction', 'rejected']]);
  assert.equal(await rpc.usdcOf(me), before.usdc);
  // The panel is usable again once its quote is refreshed.
  await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.querySelector('[data-testid="latch-swap-submit"]'))).disabled, undefined, { timeout: 5_000 });
});

async function openDemo() {
  const testPage = await harness.newPage();
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}
