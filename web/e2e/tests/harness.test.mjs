// Proves the browser-test harness itself: latchd dev, Chromium, the third-party-host guard, and the scripted
// EIP-6963 test wallet, driven through a plain-JS fixture page.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, parseEther, verifyMessage, verifyTypedData } from 'viem';
import { screenshotDirFor } from '../lib/browser.mjs';
import { useHarness } from '../lib/harness.mjs';

const harness = useHarness({ serve: fileURLToPath(new URL('../fixtures', import.meta.url)) });

/** Opens the self-test page with the wallet installed and waits until the page has discovered it. */
async function openSelftest(walletOptions = {}) {
  const testPage = await harness.newPage({ wallet: walletOptions });
  await testPage.page.goto(`${harness.siteUrl}/selftest.html`);
  await testPage.page.locator('[data-testid="wallet-list"] li[data-rdns="dev.latch.testwallet"]').waitFor();
  return testPage;
}

/**
 * Calls the wallet from inside the page.
 * @param {import('playwright-core').Page} page @param {string} method @param {unknown[]} [params]
 * @returns {Promise<{result?: any, error?: {code: number, message: string}}>}
 */
function request(page, method, params) {
  return page.evaluate(([m, p]) => window.selftest.request(m, p), [method, params]);
}

/** @param {import('playwright-core').Page} page */
async function connect(page) {
  const { result, error } = await request(page, 'eth_requestAccounts');
  assert.equal(error, undefined);
  return result[0];
}

test('the page discovers the wallet through EIP-6963', async () => {
  const { page } = await openSelftest();
  const announced = await page.evaluate(() => window.selftest.providers.map((p) => p.info));
  assert.equal(announced.length, 1);
  const [info] = announced;
  assert.equal(info.name, 'Latch Test Wallet');
  assert.equal(info.rdns, 'dev.latch.testwallet');
  assert.match(info.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(info.icon, /^data:image\/svg\+xml/);
  // re-announces on request, with the same identity
  const again = await page.evaluate(() => new Promise((resolve) => {
    window.addEventListener('eip6963:announceProvider', (e) => resolve(e.detail.info.uuid), { once: true });
    window.dispatchEvent(new Event('eip6963:requestProvider'));
  }));
  assert.equal(again, info.uuid);
  assert.equal(await page.locator('[data-testid="chain"]').textContent(), '0x7a69');
});

test('eth_requestAccounts: approve answers account #0', async () => {
  const { page, wallet } = await openSelftest();
  assert.deepEqual((await request(page, 'eth_accounts')).result, []);
  await page.getByTestId('connect').click();
  const expected = harness.latchd.info.accounts[0];
  await page.getByTestId('account').filter({ hasText: expected }).waitFor();
  assert.equal(wallet.address, expected);
  assert.deepEqual((await request(page, 'eth_accounts')).result, [expected]);
  assert.deepEqual(wallet.prompts.map((p) => [p.method, p.decision, p.origin]), [['eth_requestAccounts', 'approved', harness.siteUrl]]);
  const events = await page.evaluate(() => window.selftest.events);
  assert.deepEqual(events.find(([name]) => name === 'accountsChanged'), ['accountsChanged', [expected]]);
  assert.deepEqual(events.find(([name]) => name === 'connect'), ['connect', { chainId: '0x7a69' }]);
});

test('eth_requestAccounts: reject answers 4001 and leaves the site disconnected', async () => {
  const { page, wallet } = await openSelftest();
  wallet.rejectNext();
  const { error } = await request(page, 'eth_requestAccounts');
  assert.deepEqual(error, { code: 4001, message: 'User rejected the request.' });
  assert.equal(await page.getByTestId('error').textContent(), '4001: User rejected the request.');
  assert.deepEqual((await request(page, 'eth_accounts')).result, []);
  // the rejection was used up: the next prompt is approved
  assert.equal(await connect(page), harness.latchd.info.accounts[0]);
});

test('a reload stays connected without a new approval', async () => {
  const { page, wallet } = await openSelftest();
  const address = await connect(page);
  assert.equal(wallet.prompts.length, 1);
  await page.reload();
  await page.getByTestId('account').filter({ hasText: address }).waitFor();
  assert.deepEqual((await request(page, 'eth_accounts')).result, [address]);
  assert.deepEqual((await request(page, 'eth_requestAccounts')).result, [address]);
  assert.equal(wallet.prompts.length, 1, 'no new prompt after the reload');
  assert.deepEqual(wallet.calls.filter((m) => m === 'eth_requestAccounts').length, 2);
});

test('personal_sign and eth_signTypedData_v4 signatures verify in Node', async () => {
  const { page } = await openSelftest();
  const address = await connect(page);
  const message = 'Sign in to Latch self-test';
  const messageHex = `0x${Buffer.from(message).toString('hex')}`;
  const signed = await request(page, 'personal_sign', [messageHex, address]);
  assert.equal(signed.error, undefined);
  assert.equal(await verifyMessage({ address, message, signature: signed.result }), true);

  const typedData = {
    domain: { name: 'Latch', version: '1', chainId: 31337 },
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }],
      Greeting: [{ name: 'from', type: 'address' }, { name: 'text', type: 'string' }],
    },
    primaryType: 'Greeting',
    message: { from: address, text: 'hello' },
  };
  const typed = await request(page, 'eth_signTypedData_v4', [address, JSON.stringify(typedData)]);
  assert.equal(typed.error, undefined);
  assert.equal(await verifyTypedData({ address, ...typedData, signature: typed.result }), true);

  // a signature for an address the site was not given is refused
  const other = await request(page, 'personal_sign', [messageHex, harness.latchd.info.accounts[1]]);
  assert.equal(other.error?.code, 4100);
});

test('eth_sendTransaction of 0.01 ETH to account #1 mines on chain 31337', async () => {
  const { page } = await openSelftest();
  const from = await connect(page);
  const [network] = harness.latchd.info.networks;
  assert.equal(network.chainId, 31337);
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  const to = harness.latchd.info.accounts[1];
  const before = await client.getBalance({ address: to });

  const sent = await request(page, 'eth_sendTransaction', [{ from, to, value: `0x${parseEther('0.01').toString(16)}` }]);
  assert.equal(sent.error, undefined);
  assert.match(sent.result, /^0x[0-9a-f]{64}$/);
  const receipt = await client.waitForTransactionReceipt({ hash: sent.result, pollingInterval: 100, timeout: 15_000 });
  assert.equal(receipt.status, 'success');
  assert.equal((await client.getBalance({ address: to })) - before, parseEther('0.01'));

  // reads go through the wallet to the same chain
  const viaWallet = await request(page, 'eth_getTransactionReceipt', [sent.result]);
  assert.equal(viaWallet.result.status, '0x1');
});

test('wallet_switchEthereumChain to 31338 emits chainChanged', async () => {
  const { page } = await openSelftest();
  await connect(page);
  const switched = await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x7a6a' }]);
  assert.deepEqual(switched, { result: null });
  assert.deepEqual((await page.evaluate(() => window.selftest.events)).filter(([n]) => n === 'chainChanged'), [['chainChanged', '0x7a6a']]);
  assert.equal((await request(page, 'eth_chainId')).result, '0x7a6a');
  assert.equal((await request(page, 'net_version')).result, '31338');
  // reads follow the wallet's chain
  const rpcChain = await request(page, 'eth_getBlockByNumber', ['latest', false]);
  assert.equal(rpcChain.error, undefined);

  const unknown = await request(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }]);
  assert.equal(unknown.error?.code, 4902);
  assert.equal((await request(page, 'wallet_frobnicate')).error?.code, 4200);

  // the chain is per site and survives a reload, like the account approval
  await page.reload();
  await page.getByTestId('chain').filter({ hasText: '0x7a6a' }).waitFor();
});

test('wallet_revokePermissions disconnects; setAccount emits accountsChanged', async () => {
  const { page, wallet } = await openSelftest();
  await connect(page);
  await wallet.setAccount(2);
  const account2 = harness.latchd.info.accounts[2];
  await page.getByTestId('account').filter({ hasText: account2 }).waitFor();
  assert.deepEqual((await request(page, 'eth_accounts')).result, [account2]);
  const perms = await request(page, 'wallet_getPermissions');
  assert.equal(perms.result[0].parentCapability, 'eth_accounts');

  assert.deepEqual(await request(page, 'wallet_revokePermissions', [{ eth_accounts: {} }]), { result: null });
  const events = await page.evaluate(() => window.selftest.events.filter(([n]) => n === 'accountsChanged'));
  assert.deepEqual(events.at(-1), ['accountsChanged', []]);
  assert.deepEqual((await request(page, 'eth_accounts')).result, []);
  assert.deepEqual((await request(page, 'wallet_getPermissions')).result, []);
  assert.equal((await request(page, 'personal_sign', ['0x00', account2])).error?.code, 4100);
});

test('holdNext keeps a prompt open until the test answers it', async () => {
  const { page, wallet } = await openSelftest();
  const held = wallet.holdNext('eth_requestAccounts');
  const pending = request(page, 'eth_requestAccounts');
  const prompt = await held.prompted;
  assert.equal(prompt.method, 'eth_requestAccounts');
  assert.equal(await page.getByTestId('account').textContent(), '—');
  held.approve();
  assert.deepEqual((await pending).result, [harness.latchd.info.accounts[0]]);
});

test('the guard aborts and records a request to a third-party host', async () => {
  const testPage = await openSelftest();
  const { page } = testPage;
  testPage.allowConsoleErrors(/example\.com|ERR_BLOCKED_BY_CLIENT|Failed to load resource/);
  const outcome = await page.evaluate(() => window.selftest.fetchThirdParty('https://example.com/'));
  assert.match(outcome, /^failed: /);
  assert.deepEqual(testPage.blockedRequests.map((r) => r.url), ['https://example.com/']);
  // WebSockets (a relay) go through the same guard
  const ws = await page.evaluate(() => new Promise((resolve) => {
    const socket = new WebSocket('wss://relay.example.net/');
    socket.onclose = (e) => resolve(e.code);
  }));
  assert.equal(typeof ws, 'number');
  assert.deepEqual(testPage.blockedRequests.map((r) => `${r.resourceType} ${r.url}`), [
    'fetch https://example.com/',
    'websocket wss://relay.example.net/',
  ]);
  assert.throws(() => testPage.assertNoThirdPartyRequests(), /third-party hosts:\n.*https:\/\/example\.com\//);
  // the afterEach check (checkPages) fails on it too; run it here so that this test itself stays green
  await assert.rejects(harness.browser.checkPages(), /GET https:\/\/example\.com\/ \(fetch\)\n.*wss:\/\/relay\.example\.net/);
});

test('the guard lets loopback requests through', async () => {
  const testPage = await openSelftest();
  const outcome = await testPage.page.evaluate((url) => window.selftest.fetchThirdParty(url), `${harness.latchd.apiUrl}/healthz`);
  assert.equal(outcome, 'loaded');
  assert.deepEqual(testPage.blockedRequests, []);
});

test('a screenshot is saved to the ignored web/e2e/screenshots-out, never the committed screenshots/', async () => {
  const testPage = await openSelftest();
  await connect(testPage.page);
  const path = await testPage.screenshot('harness-selftest');
  assert.match(path, /web\/e2e\/screenshots-out\/harness-selftest\.png$/);
  const png = await readFile(path);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
});

test('LATCH_E2E_SCREENSHOTS=commit (make screenshots) writes the committed folder; other values are refused', () => {
  assert.match(screenshotDirFor(undefined), /web\/e2e\/screenshots-out$/);
  assert.match(screenshotDirFor(''), /web\/e2e\/screenshots-out$/);
  assert.match(screenshotDirFor('commit'), /web\/e2e\/screenshots$/);
  assert.throws(() => screenshotDirFor('yes'), /LATCH_E2E_SCREENSHOTS="yes": leave it unset .* or set "commit"/);
});
