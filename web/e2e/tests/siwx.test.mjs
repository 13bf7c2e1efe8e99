// Sign-in with X end to end (issue 19, spec §2, §4, §8): the demo dapp with
// ?siwx=optional|required (latchSiwx(), backed by latchd), served by a real
// `latchd dev`, the scripted test wallet (dev account #0), Chromium. The
// wallet signs the EIP-4361 message with personal_sign; latchd verifies it and
// keeps the session, whose token the page stores, so a reload stays signed in
// and a session revoked on latchd is caught by the startup check.
// Build the web packages and the demo first (scripts/test-e2e.sh does);
// LATCH_E2E_DEMO_DIR points at another build of the demo.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { useHarness } from '../lib/harness.mjs';
import { createWallet, guardNetwork, relayUrlOf } from '../lib/wc-peer.mjs';

const demoDir = process.env.LATCH_E2E_DEMO_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

// The WalletConnect wallet peer runs in this process: it too may reach latchd only.
const network = guardNetwork();
after(() => network.restore());
afterEach(() => assert.deepEqual(network.violations, [], 'the wallet peer contacted a host other than latchd'));
/** Wallet peers opened by a test; closed after it. */
const peers = [];
afterEach(async () => {
  await Promise.allSettled(peers.splice(0).map((w) => w.close()));
});

/** The storage key of latchSiwx()'s session tokens. */
const tokensKey = () => `latch:siwx:${harness.latchd.info.projectId}`;

/** Opens the demo with sign-in on in `mode`. */
async function openDemo(/** @type {'optional' | 'required'} */ mode) {
  const testPage = await harness.newPage();
  await testPage.page.goto(`${harness.latchd.info.demoUrl}?siwx=${mode}`);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Connects the test wallet from the Connect view; the sign-in view then opens (no session yet). */
async function connect(/** @type {import('playwright-core').Page} */ page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  return page.getByTestId('latch-view-SIWXSignMessage');
}

/** What the demo's useLatchSession() shows. */
async function session(/** @type {import('playwright-core').Page} */ page) {
  return JSON.parse((await page.getByTestId('demo-session').textContent()) ?? 'null');
}

async function waitForSession(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ status) {
  await page.getByTestId('demo-session').filter({ hasText: `"status": "${status}"` }).waitFor();
}

/** The demo's account status. */
async function accountStatus(/** @type {import('playwright-core').Page} */ page) {
  return JSON.parse((await page.getByTestId('demo-account').textContent()) ?? 'null').status;
}

/** The page's stored session tokens (account → token). */
async function storedTokens(/** @type {import('playwright-core').Page} */ page) {
  return JSON.parse((await page.evaluate((key) => localStorage.getItem(key), tokensKey())) ?? '{}');
}

/** GET /auth/v1/me with a token, as a dapp backend would ask. */
async function me(/** @type {string} */ token) {
  const { apiUrl, projectId } = harness.latchd.info;
  return fetch(`${apiUrl}/auth/v1/me?projectId=${projectId}`, { headers: { Authorization: `Bearer ${token}` } });
}

test('optional sign-in: connect, SIWXSignMessage, the wallet signs an EIP-4361 message, latchd keeps the session; reload keeps it', async () => {
  const t = await openDemo('optional');
  const { page, wallet } = t;
  const view = await connect(page);
  await view.getByTestId('latch-siwx-title').filter({ hasText: 'Latch demo needs to connect to your wallet' }).waitFor();
  await t.screenshot('siwx-sign-message');
  // Optional: the modal's close button is there.
  assert.equal(await page.getByRole('button', { name: 'Close' }).count(), 1);

  await view.getByTestId('latch-siwx-sign').click();
  await view.waitFor({ state: 'detached' });
  await waitForSession(page, 'signed-in');
  assert.equal((await session(page)).address, wallet.address);

  // The wallet signed latchd's nonce in an EIP-4361 message for this page's host.
  const signs = wallet.prompts.filter((p) => p.method === 'personal_sign');
  assert.equal(signs.length, 1);
  const text = Buffer.from(String(signs[0].params[0]).slice(2), 'hex').toString('utf8');
  const host = new URL(harness.latchd.info.demoUrl).host;
  assert.match(text, new RegExp(`^${host.replace(/\./g, '\\.')} wants you to sign in with your Ethereum account:\n${wallet.address}\n\nSign in to the Latch demo\n\nURI: http://${host}\nVersion: 1\nChain ID: \\d+\nNonce: [0-9a-f]{24}\nIssued At: `));

  // latchd has the session: the stored token is the account's, as a backend sees it.
  const tokens = await storedTokens(page);
  const [token] = Object.values(tokens);
  assert.ok(typeof token === 'string' && token.startsWith('siwx_'), `stored token: ${JSON.stringify(tokens)}`);
  const answer = await me(token);
  assert.equal(answer.status, 200);
  assert.equal((await answer.json()).address, wallet.address);

  // A reload restores the connection and the session: no sign-in view, no second signature.
  await page.reload();
  await waitForSession(page, 'signed-in');
  assert.equal(await accountStatus(page), 'connected');
  assert.equal(await page.getByTestId('latch-view-SIWXSignMessage').count(), 0);
  assert.equal(wallet.prompts.filter((p) => p.method === 'personal_sign').length, 1);

  // Disconnecting signs out (latchSiwx's signOutOnDisconnect): latchd refuses the token from then on.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await waitForSession(page, 'signed-out');
  await assertEventually(async () => (await me(token)).status === 401, 'latchd still accepts the token after disconnect');
  // The page forgets the token once latchd's answer to the sign-out is back, a moment after latchd revoked it.
  await assertEventually(async () => Object.keys(await storedTokens(page)).length === 0, 'the page still stores the token after disconnect');
});

test('required sign-in: the view cannot be closed; a declined signature keeps it with "Signature declined"; signing then works', async () => {
  const t = await openDemo('required');
  const { page, wallet } = t;
  const view = await connect(page);
  await view.waitFor();
  // No close button, Escape and the backdrop do not close it.
  assert.equal(await page.getByRole('button', { name: 'Close' }).count(), 0);
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-modal-backdrop').click({ position: { x: 5, y: 5 } });
  await view.waitFor();

  wallet.rejectNext('personal_sign');
  await view.getByTestId('latch-siwx-sign').click();
  await view.getByTestId('latch-siwx-error').filter({ hasText: 'Signature declined' }).waitFor();
  await t.screenshot('siwx-signature-declined');
  assert.equal(await accountStatus(page), 'connected');
  await waitForSession(page, 'signed-out');

  await view.getByTestId('latch-siwx-sign').click();
  await view.waitFor({ state: 'detached' });
  await waitForSession(page, 'signed-in');
  assert.equal(wallet.prompts.filter((p) => p.method === 'personal_sign').length, 2);
});

test('cancel with sign-in required disconnects and the modal shows Connect', async () => {
  const { page } = await openDemo('required');
  const view = await connect(page);
  await view.getByTestId('latch-siwx-cancel').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await assertEventually(async () => (await accountStatus(page)) === 'disconnected', 'the wallet is still connected');
  assert.deepEqual(await storedTokens(page), {});
});

test('cancel with sign-in optional closes the modal, stays connected; the next open starts at Account', async () => {
  const { page } = await openDemo('optional');
  const view = await connect(page);
  await view.getByTestId('latch-siwx-cancel').click();
  await page.getByTestId('latch-modal-backdrop').waitFor({ state: 'detached' });
  assert.equal(await accountStatus(page), 'connected');
  await waitForSession(page, 'signed-out');
  // The router was reset (to Connect, then Account as the opening rule says for a connected account).
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
});

test('a session revoked on latchd is caught by the startup check: the wallet is disconnected with an error', async () => {
  const t = await openDemo('optional');
  const { page } = t;
  const view = await connect(page);
  await view.getByTestId('latch-siwx-sign').click();
  await waitForSession(page, 'signed-in');
  const [token] = Object.values(await storedTokens(page));

  // The dapp's backend revokes the session (its own route, with the page's token).
  const { apiUrl, projectId } = harness.latchd.info;
  const list = await fetch(`${apiUrl}/auth/v1/siwx/sessions?projectId=${projectId}`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(list.status, 200);
  const [first] = (await list.json()).sessions;
  const revoked = await fetch(`${apiUrl}/auth/v1/siwx/sessions/${first.id}/revoke?projectId=${projectId}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(revoked.status, 200);

  // The browser logs latchd's refusal of the stored token: that refusal is what this test is about.
  t.allowConsoleErrors(/status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/siwx\/sessions\?/);
  await page.reload();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByTestId('latch-toast').filter({ hasText: 'A problem occurred while trying initialize authentication' }).waitFor();
  await assertEventually(async () => (await accountStatus(page)) === 'disconnected', 'the wallet is still connected');
  await t.screenshot('siwx-startup-check-failed');
  assert.deepEqual(await storedTokens(page), {});
  assert.equal((await session(page)).error, 'A problem occurred while trying initialize authentication');
});

test('one-click sign-in over WalletConnect: the wallet signs the sign-in request once (a CACAO), latchd verifies it and keeps the session', async () => {
  const { info, apiUrl } = harness.latchd;
  const hd = mnemonicToAccount(info.mnemonic, { addressIndex: 1 }).getHdKey();
  if (!hd.privateKey) throw new Error('no private key for account #1');
  const wallet = await createWallet({
    relayUrl: relayUrlOf(apiUrl),
    projectId: info.projectId,
    privateKey: toHex(hd.privateKey),
    chains: info.networks.map((n) => ({ chainId: n.chainId, rpcUrl: n.rpcUrl })),
  });
  peers.push(wallet);

  const testPage = await harness.newPage({ wallet: false });
  const { page, context } = testPage;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(info.demoUrl).origin });
  await page.goto(`${info.demoUrl}?siwx=required`);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByTestId('latch-wallet-walletConnect').click();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  await page.getByTestId('latch-wc-copy-link').click();
  await page.getByTestId('latch-toast').filter({ hasText: 'Link copied' }).waitFor();
  const uri = await page.evaluate(() => navigator.clipboard.readText());
  // A pairing for wc_sessionAuthenticate (beside the fallback session proposal).
  assert.match(uri, /^wc:[0-9a-f]{64}@2\?/);
  assert.match(decodeURIComponent(uri), /wc_sessionAuthenticate/);

  await wallet.pair(uri);
  await wallet.nextSession();
  await waitForSession(page, 'signed-in');
  assert.equal((await session(page)).address, wallet.address);
  // Signed in with the connection: no sign-in view, no personal_sign.
  assert.equal(await page.getByTestId('latch-view-SIWXSignMessage').count(), 0);
  assert.equal(wallet.requests.filter((r) => r.method === 'personal_sign').length, 0);

  // The wallet signed one sign-in message: latchd's nonce, the page's domain, the demo's statement with ReCap's sentence.
  assert.equal(wallet.authentications.length, 1);
  const [signed] = wallet.authentications;
  const host = new URL(info.demoUrl).host;
  assert.match(signed.message, new RegExp(`^${host.replace(/\./g, '\\.')} wants you to sign in with your Ethereum account:\n${wallet.address}\n\nSign in to the Latch demo I further authorize the stated URI to perform the following actions on my behalf: `));
  assert.match(signed.message, /\nNonce: [0-9a-f]{24}\n/);

  // latchd verified it and keeps the session, with the wallet's CACAO.
  const [token] = Object.values(await storedTokens(page));
  const answer = await me(token);
  assert.equal(answer.status, 200);
  assert.equal((await answer.json()).address, wallet.address);
  const list = await fetch(`${apiUrl}/auth/v1/siwx/sessions?projectId=${info.projectId}`, { headers: { Authorization: `Bearer ${token}` } });
  const [stored] = (await list.json()).sessions;
  assert.equal(stored.message, signed.message);
  assert.equal(stored.signature, signed.signature);
  assert.equal(stored.cacao.p.iss, `did:pkh:eip155:${info.networks[0].chainId}:${wallet.address}`);
});

/** Polls `check` for up to 10 s. */
async function assertEventually(/** @type {() => Promise<boolean>} */ check, /** @type {string} */ message) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(message);
}
