// Send through the widget end to end (issue 7, spec §4, §5, §8): the demo
// dapp served by a real `latchd dev`, the scripted test wallet (dev account
// #0), Chromium. Balances are checked on the chain itself (JSON-RPC to the dev
// node) and in the widget; every refused send is checked to have asked the
// wallet nothing and moved nothing. Build the web packages first
// (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, erc20Abi, formatEther, http } from 'viem';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;

/** The dev chain, read directly (not through latchd), so the widget is checked against the node. */
function chain() {
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network, 'dev network 31337');
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  const usdc = /** @type {`0x${string}`} */ (harness.latchd.info.tokens[`eip155:${devA}`].USDC.address);
  return {
    usdc,
    eth: (/** @type {string} */ address) => client.getBalance({ address: /** @type {`0x${string}`} */ (address) }),
    usdcOf: (/** @type {string} */ address) =>
      client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [/** @type {`0x${string}`} */ (address)] }),
  };
}

/** en-US, 2 decimals: what the widget shows for USD (spec §9). */
const usd = (/** @type {number} */ value) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

async function openDemo() {
  const testPage = await harness.newPage();
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Connects the test wallet and opens the Account view. */
async function connectAndOpenAccount(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
}

/** Opens Send from the Account view and waits for the visitor's tokens in the picker. */
async function openSend(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  await page.locator('[data-testid="latch-send-token"] option', { hasText: /^USDC/ }).waitFor({ state: 'attached' });
}

/** Fills the form; `token` is a symbol (selected by its option label), undefined leaves it unselected. */
async function fill(/** @type {import('playwright-core').Page} */ page, /** @type {{token?: string, amount?: string, receiver?: string}} */ form) {
  if (form.token) {
    const label = await page.locator('[data-testid="latch-send-token"] option', { hasText: new RegExp(`^${form.token} `) }).textContent();
    await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (label) });
  }
  if (form.amount !== undefined) await page.getByTestId('latch-send-amount').fill(form.amount);
  if (form.receiver !== undefined) await page.getByTestId('latch-send-receiver').fill(form.receiver);
}

/** What the Tokens tab shows for a symbol: quantity text and USD text. */
async function tokenRow(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ symbol) {
  const row = page.getByTestId(`latch-token-${symbol}`);
  return {
    quantity: await row.getByTestId('latch-token-quantity').textContent(),
    value: await row.getByTestId('latch-token-value').textContent(),
  };
}

test('sends 1.5 USDC, then 0.01 ETH, to account #2: the chain and the widget both change; Activity shows the sends', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  const { accounts } = harness.latchd.info;
  const receiver = accounts[2];
  const rpc = chain();
  const before = { usdc0: await rpc.usdcOf(accounts[0]), usdc2: await rpc.usdcOf(receiver), eth2: await rpc.eth(receiver) };

  await connectAndOpenAccount(page);
  await page.getByTestId('latch-token-USDC').waitFor();
  await openSend(page);
  await fill(page, { token: 'USDC', amount: '1.5', receiver });
  await page.getByTestId('latch-send-review').click();

  // Review: amount, receiver, network fee in ETH and USD.
  const preview = page.getByTestId('latch-view-WalletSendPreview');
  await preview.waitFor();
  assert.equal(await preview.getByTestId('latch-send-preview-amount').textContent(), '1.500 USDC $1.50');
  assert.match(/** @type {string} */ (await preview.getByTestId('latch-send-fee').textContent()), /^(<?\d+\.\d+) ETH \$\d[\d,]*\.\d\d$/);
  await t.screenshot('send-review-light');
  await preview.getByTestId('latch-send-confirm').click();

  // Token transfers return to Account (spec §4), with a success toast.
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-toast').filter({ hasText: 'Sent 1.5 USDC' }).waitFor();
  const sends = wallet.prompts.filter((p) => p.method === 'eth_sendTransaction');
  assert.equal(sends.length, 1);
  assert.equal(sends[0].decision, 'approved');
  assert.equal(await rpc.usdcOf(receiver), before.usdc2 + 1_500_000n);
  assert.equal(await rpc.usdcOf(accounts[0]), before.usdc0 - 1_500_000n);

  // The widget's Tokens tab follows: 999,998.500 USDC at $1.
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '999,998.500 USDC' }).waitFor();
  assert.equal((await tokenRow(page, 'USDC')).value, usd(999_998.5));

  // 0.01 ETH: Send opens on the native coin, and a native send returns to Account too.
  await openSend(page);
  assert.match(/** @type {string} */ (await page.locator('[data-testid="latch-send-token"] option:checked').textContent()), /^ETH /);
  await fill(page, { token: 'ETH', amount: '0.01', receiver });
  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-view-WalletSendPreview').getByTestId('latch-send-confirm').click();
  await page.getByTestId('latch-toast').filter({ hasText: 'Sent 0.01 ETH' }).waitFor();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await rpc.eth(receiver), before.eth2 + 10n ** 16n);

  // Back on Account: the ETH row is the chain's balance (10000 - 0.01 - gas), 3 decimals, at $3000.
  const eth0Text = formatEther(await rpc.eth(accounts[0]));
  const eth0 = Number(eth0Text);
  // The widget cuts quantities to 3 decimals (spec §9: truncated, not rounded).
  const [whole, fraction = ''] = eth0Text.split('.');
  const ethQuantity = `${Number(whole).toLocaleString('en-US')}.${fraction.padEnd(3, '0').slice(0, 3)} ETH`;
  await page.getByTestId('latch-token-ETH').getByTestId('latch-token-quantity').filter({ hasText: ethQuantity }).waitFor();
  assert.equal((await tokenRow(page, 'ETH')).value, usd(eth0 * 3000));

  // Activity: both sends under this month, today's DD MMM, no sign for a send (spec §9).
  await page.getByTestId('latch-account-tab-activity').click();
  const month = new Date().toLocaleString('en-US', { month: 'long' });
  const today = `${String(new Date().getDate()).padStart(2, '0')} ${new Date().toLocaleString('en-US', { month: 'short' })}`;
  const group = page.getByTestId('latch-activity-group').filter({ has: page.getByTestId('latch-activity-group-title').filter({ hasText: month }) });
  await group.getByTestId('latch-activity-description').filter({ hasText: /^0\.010 ETH$/ }).waitFor({ timeout: 15_000 });
  await group.getByTestId('latch-activity-description').filter({ hasText: /^1\.500 USDC$/ }).waitFor();
  const items = group.getByTestId('latch-activity-item');
  assert.equal(await items.first().getByTestId('latch-activity-date').textContent(), today);
  assert.equal(await items.first().getAttribute('data-type'), 'send');
  await t.screenshot('account-activity-light');
});

test('refused sends: empty fields, a bad address, more than the balance, a wallet rejection — each says why and nothing moves', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  const { accounts } = harness.latchd.info;
  const receiver = accounts[2];
  const rpc = chain();
  const before = { usdc2: await rpc.usdcOf(receiver), eth2: await rpc.eth(receiver) };
  const error = page.getByTestId('latch-send-error');

  await connectAndOpenAccount(page);
  await openSend(page);

  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'An amount and receiver address are required' }).waitFor();

  // The form starts on the native coin; with none chosen, a token is asked for.
  await page.getByTestId('latch-send-token').selectOption({ value: '' });
  await fill(page, { amount: '1', receiver });
  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'A token is required' }).waitFor();

  await fill(page, { token: 'USDC', amount: '1', receiver: '0x1234' });
  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'Address "0x1234" is invalid.' }).waitFor();

  await fill(page, { amount: '1.2.3', receiver });
  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'Number `1.2.3` is not a valid decimal number.' }).waitFor();

  await fill(page, { amount: '2000000' });
  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'Insufficient USDC balance' }).waitFor();

  // Exactly the ETH balance: the amount fits, the fee does not.
  await fill(page, { token: 'ETH', amount: formatEther(await rpc.eth(accounts[0])) });
  await page.getByTestId('latch-send-review').click();
  await error.filter({ hasText: 'Insufficient ETH balance for the amount plus the network fee' }).waitFor();
  assert.ok(!wallet.calls.includes('eth_sendTransaction'), `the wallet was asked: ${wallet.calls.join(', ')}`);

  // A valid send the visitor declines in the wallet.
  await fill(page, { token: 'USDC', amount: '3', receiver });
  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-view-WalletSendPreview').waitFor();
  wallet.rejectNext('eth_sendTransaction');
  await page.getByTestId('latch-send-confirm').click();
  await error.filter({ hasText: 'User rejected the request.' }).waitFor();
  await page.getByTestId('latch-view-WalletSendPreview').waitFor();
  assert.equal(await page.getByTestId('latch-send-confirm').isEnabled(), true, 'loading is cleared after the rejection');
  await t.screenshot('send-rejected-light');
  const prompts = wallet.prompts.filter((p) => p.method === 'eth_sendTransaction');
  assert.deepEqual(prompts.map((p) => p.decision), ['rejected']);
  assert.equal(await rpc.usdcOf(receiver), before.usdc2);
  assert.equal(await rpc.eth(receiver), before.eth2);
});

test('Max fills the balance less the fee; Receive shows the address as QR and text with its networks', async () => {
  const { page, wallet } = await openDemo();
  await connectAndOpenAccount(page);
  await openSend(page);
  await fill(page, { token: 'USDC' });
  await page.getByTestId('latch-send-max').click();
  const rpc = chain();
  const usdc = Number(await rpc.usdcOf(harness.latchd.info.accounts[0])) / 1e6;
  await page.waitForFunction((v) => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="latch-send-amount"]'))?.value === v, String(usdc));
  await fill(page, { token: 'ETH', amount: '' });
  await page.getByTestId('latch-send-max').click();
  await page.waitForFunction(() => /^9999\.\d+$/.test(/** @type {HTMLInputElement} */ (document.querySelector('[data-testid="latch-send-amount"]'))?.value ?? ''));
  const max = Number(await page.getByTestId('latch-send-amount').inputValue());
  const eth = Number(formatEther(await rpc.eth(harness.latchd.info.accounts[0])));
  assert.ok(max < eth && eth - max < 0.01, `max ${max} should be the balance ${eth} less a small fee`);

  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-account-receive').click();
  const view = page.getByTestId('latch-view-WalletReceive');
  await view.waitFor();
  assert.equal(await view.getByTestId('latch-receive-address').textContent(), wallet.address);
  assert.ok(await view.getByRole('img', { name: 'QR code of your address' }).isVisible());
  for (const n of harness.latchd.info.networks) await view.getByTestId(`latch-receive-network-${n.chainId}`).waitFor();
});

test('useLatchSend from the app’s own form: the same rules and the same wallet call, without the modal', async () => {
  const { page, wallet } = await openDemo();
  const { accounts, tokens } = harness.latchd.info;
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network);
  const dai = /** @type {`0x${string}`} */ (tokens[`eip155:${devA}`].DAI.address);
  const reader = createPublicClient({ transport: http(network.rpcUrl) });
  const daiOf = (/** @type {string} */ a) => reader.readContract({ address: dai, abi: erc20Abi, functionName: 'balanceOf', args: [/** @type {`0x${string}`} */ (a)] });
  const before = await daiOf(accounts[3]);

  await page.getByTestId('latch-connect-button').click();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.locator('[data-testid="demo-send-token"] option[value="DAI"]').waitFor({ state: 'attached' });

  await page.getByTestId('demo-send').click();
  await page.getByTestId('demo-send-error').filter({ hasText: 'An amount and receiver address are required' }).waitFor();
  assert.ok(!wallet.calls.includes('eth_sendTransaction'));

  await page.getByTestId('demo-send-token').selectOption('DAI');
  await page.getByTestId('demo-send-amount').fill('2.25');
  await page.getByTestId('demo-send-receiver').fill(accounts[3]);
  await page.getByTestId('demo-send').click();
  await page.getByTestId('demo-send-hash').waitFor();
  assert.equal(await daiOf(accounts[3]), before + 2_250_000_000_000_000_000n);
  assert.equal(await page.getByTestId('latch-modal').count(), 0, 'the modal stayed closed');
});
