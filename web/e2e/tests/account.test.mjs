// The Account view's Tokens and Activity tabs end to end (issue 6, spec §2,
// §5, §9): the demo dapp served by a real `latchd dev` (balances, prices and
// history from its account routes and indexer), the scripted test wallet and
// Chromium. The wallet sends a token on the dev chain by itself (not through
// the widget); the widget then shows it in Activity — signed per spec §9,
// grouped by month, dated DD MMM — and the new balances with their USD values.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, defineChain, erc20Abi, http } from 'viem';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;
const usd = (/** @type {number} */ value) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
const month = () => new Date().toLocaleString('en-US', { month: 'long' });
const today = () => `${String(new Date().getDate()).padStart(2, '0')} ${new Date().toLocaleString('en-US', { month: 'short' })}`;

async function openDemo(/** @type {{accountIndex?: number}} */ wallet = {}) {
  const testPage = await harness.newPage({ wallet });
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

async function connectAndOpenAccount(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
}

/** The wallet's key sends `amount` (base units) of USDC to `to`, straight to the dev node, and waits for the receipt. */
async function walletSendsUsdc(/** @type {import('viem').LocalAccount} */ account, /** @type {string} */ to, /** @type {bigint} */ amount) {
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network);
  const chain = defineChain({ id: devA, name: network.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [network.rpcUrl] } } });
  const usdc = /** @type {`0x${string}`} */ (harness.latchd.info.tokens[`eip155:${devA}`].USDC.address);
  const wallet = createWalletClient({ account, chain, transport: http(network.rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(network.rpcUrl) });
  const hash = await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: 'transfer', args: [/** @type {`0x${string}`} */ (to), amount] });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success');
  return { hash, balanceOf: (/** @type {string} */ a) => reader.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [/** @type {`0x${string}`} */ (a)] }) };
}

test('Tokens: the total and every balance with 3-decimal quantities and 2-decimal USD; NFTs: empty state', async () => {
  const t = await openDemo();
  const { page } = t;
  await connectAndOpenAccount(page);
  // Account #0 on a fresh chain: 10000 ETH at $3000, 1,000,000 USDC and DAI at $1 (latchd dev's feeds).
  const eth = page.getByTestId('latch-token-ETH');
  await eth.getByTestId('latch-token-quantity').filter({ hasText: '10,000.000 ETH' }).waitFor();
  assert.equal(await eth.getByTestId('latch-token-value').textContent(), usd(30_000_000));
  const usdcRow = page.getByTestId('latch-token-USDC');
  assert.equal(await usdcRow.getByTestId('latch-token-quantity').textContent(), '1,000,000.000 USDC');
  assert.equal(await usdcRow.getByTestId('latch-token-value').textContent(), usd(1_000_000));
  // The total is the sum of the rows.
  const values = await page.getByTestId('latch-token-value').allTextContents();
  const sum = values.reduce((s, v) => s + Number(v.replace(/[$,]/g, '')), 0);
  assert.equal(await page.getByTestId('latch-tokens-total').textContent(), usd(sum));
  // Native first (spec: the network's coin leads the list).
  assert.equal(await page.getByTestId(/^latch-token-/).first().getAttribute('data-testid'), 'latch-token-ETH');
  await t.screenshot('account-tokens-light');
  await page.getByTestId('latch-account-tab-nfts').click();
  await page.getByTestId('latch-nfts-empty').waitFor();
});

test('Activity: after the wallet sends USDC on the dev chain, the sender sees it unsigned, the receiver with +, under this month, dated today; Tokens follow', async () => {
  // Account #1, whose balances nothing has read yet: latchd caches an address's balances for 30 s (spec §9),
  // and a transfer made outside the widget is only seen once that cache ends.
  const t = await openDemo({ accountIndex: 1 });
  const { page, wallet } = t;
  const { accounts } = harness.latchd.info;
  const receiver = accounts[2];
  const sent = await walletSendsUsdc(wallet.account, receiver, 2_500_000n);
  const senderUsdc = Number(await sent.balanceOf(accounts[1])) / 1e6;
  const receiverUsdc = Number(await sent.balanceOf(receiver)) / 1e6;

  await connectAndOpenAccount(page);
  const fmt = (/** @type {number} */ n) => n.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: `${fmt(senderUsdc)} USDC` }).waitFor();
  assert.equal(await page.getByTestId('latch-token-USDC').getByTestId('latch-token-value').textContent(), usd(senderUsdc));

  await page.getByTestId('latch-account-tab-activity').click();
  const group = page.getByTestId('latch-activity-group').first();
  await group.waitFor({ timeout: 15_000 });
  assert.equal(await group.getByTestId('latch-activity-group-title').textContent(), month());
  const item = group.locator(`[data-testid="latch-activity-item"][data-hash="${sent.hash}"]`);
  await item.waitFor();
  assert.equal(await item.getAttribute('data-type'), 'send');
  assert.deepEqual(await item.getByTestId('latch-activity-description').allTextContents(), ['2.500 USDC']);
  assert.equal(await item.getByTestId('latch-activity-date').textContent(), today());
  assert.match(/** @type {string} */ (await item.getByTestId('latch-activity-relative').textContent()), /^\d+ (sec|min)$/);
  assert.ok((await item.textContent())?.includes('Sent'));
  await t.screenshot('account-activity-sender-light');

  // The same transfer seen by the receiver: the wallet switches to account #2 and the widget follows.
  await wallet.setAccount(2);
  await page.getByTestId('latch-account-address').filter({ hasText: `${receiver.slice(0, 4)}…${receiver.slice(-6)}` }).waitFor();
  const received = page.locator(`[data-testid="latch-activity-item"][data-hash="${sent.hash}"]`);
  await received.waitFor({ timeout: 15_000 });
  assert.equal(await received.getAttribute('data-type'), 'receive');
  assert.deepEqual(await received.getByTestId('latch-activity-description').allTextContents(), ['+2.500 USDC']);
  assert.ok((await received.textContent())?.includes('Received'));
  await page.getByTestId('latch-account-tab-tokens').click();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: `${fmt(receiverUsdc)} USDC` }).waitFor();
  assert.equal(await page.getByTestId('latch-token-USDC').getByTestId('latch-token-value').textContent(), usd(receiverUsdc));
});
