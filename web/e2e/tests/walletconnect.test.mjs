// WalletConnect end to end: the demo dapp (web/apps/demo, built) served by a
// real `latchd dev`, the widget's WalletConnect connector (the pinned
// @walletconnect/universal-provider 2.21.8) in Chromium, and a wallet peer in
// Node (lib/wc-peer.mjs, sign-client 2.21.8) holding a dev key — both talking
// through latchd's relay and nothing else. The page has no injected wallet, so
// every connection here is a WalletConnect session. Build the web packages
// first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { useHarness } from '../lib/harness.mjs';
import { createWallet, guardNetwork, relayUrlOf } from '../lib/wc-peer.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

// The page is guarded by the harness (no host but loopback); the wallet peer in
// this process is guarded here: it too may reach latchd only.
const network = guardNetwork();
after(() => network.restore());
afterEach(() => assert.deepEqual(network.violations, [], 'the wallet peer contacted a host other than latchd'));

/** Wallet peers opened by a test; closed after it. */
const wallets = [];
afterEach(async () => {
  await Promise.allSettled(wallets.splice(0).map((w) => w.close()));
});

const truncated = (address) => `${address.slice(0, 4)}…${address.slice(-6)}`;

/** A WalletConnect wallet with mnemonic account #1 (funded with 10000 ETH on every dev chain). */
async function newWallet() {
  const { info, apiUrl } = harness.latchd;
  const hd = mnemonicToAccount(info.mnemonic, { addressIndex: 1 }).getHdKey();
  if (!hd.privateKey) throw new Error('no private key for account #1');
  const wallet = await createWallet({
    relayUrl: relayUrlOf(apiUrl),
    projectId: info.projectId,
    privateKey: toHex(hd.privateKey),
    chains: info.networks.map((n) => ({ chainId: n.chainId, rpcUrl: n.rpcUrl })),
  });
  wallets.push(wallet);
  return wallet;
}

/** Opens the demo without an injected wallet; records the page's websockets. */
async function openDemo() {
  const testPage = await harness.newPage({ wallet: false });
  const { page, context } = testPage;
  /** @type {string[]} */
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harness.latchd.info.demoUrl).origin });
  await page.goto(harness.latchd.info.demoUrl);
  await page.getByTestId('latch-connect-button').waitFor();
  return { testPage, page, sockets };
}

/** Connect → WalletConnect: waits for the QR code, copies the pairing link and returns it. */
async function showPairing(page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByTestId('latch-wallet-walletConnect').click();
  await page.getByTestId('latch-view-ConnectingWalletConnect').waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  return copyLink(page);
}

/** The pairing URI, read the way a visitor pastes it: Copy link, then the clipboard. */
async function copyLink(page) {
  await page.getByTestId('latch-wc-copy-link').click();
  await page.getByTestId('latch-toast').filter({ hasText: 'Link copied' }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Pairs a new wallet through the page's QR code; resolves with the wallet and its session once the widget is connected. */
async function connectByQr(page) {
  const wallet = await newWallet();
  const uri = await showPairing(page);
  await wallet.pair(uri);
  const session = await wallet.nextSession();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  return { wallet, session, uri };
}

test('connect by QR code: the pairing URI from the page, approved by the wallet; account and balance show', async () => {
  const { testPage, page, sockets } = await openDemo();
  const wallet = await newWallet();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByTestId('latch-wallet-walletConnect').waitFor();
  await testPage.screenshot('walletconnect-connect-light');
  await page.getByTestId('latch-wallet-walletConnect').click();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  await testPage.screenshot('walletconnect-qr-light');
  const uri = await copyLink(page);
  assert.match(uri, /^wc:[0-9a-f]{64}@2\?/);
  const params = new URLSearchParams(uri.slice(uri.indexOf('?') + 1));
  assert.equal(params.get('relay-protocol'), 'irn');
  assert.match(params.get('symKey') ?? '', /^[0-9a-f]{64}$/);
  // The QR code is drawn (an SVG path of dark modules) and titled for screen readers.
  const path = await page.getByTestId('latch-wc-qr-svg').locator('path').getAttribute('d');
  assert.ok(path && path.length > 500, 'the QR code has no modules');
  await page.getByRole('img', { name: 'QR code to connect with WalletConnect' }).waitFor();

  await wallet.pair(uri);
  const session = await wallet.nextSession();
  // The widget asked for the demo's dev networks; the wallet approved them with its account.
  assert.deepEqual(
    session.namespaces.eip155.chains,
    harness.latchd.info.networks.map((n) => n.caipNetworkId),
  );
  assert.ok(session.namespaces.eip155.methods.includes('personal_sign'));

  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').filter({ hasText: truncated(wallet.address) }).waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: '10,000.000 ETH' }).waitFor();

  // Every websocket the page opened went to latchd's relay.
  assert.ok(sockets.length > 0, 'the page opened no relay websocket');
  for (const url of sockets) assert.ok(url.startsWith(`${relayUrlOf(harness.latchd.apiUrl)}/?`), `websocket to ${url}`);
});

test('personal_sign from the demo page round-trips through the wallet', async () => {
  const { page } = await openDemo();
  const { wallet, session } = await connectByQr(page);
  await page.getByTestId('demo-sign-input').fill('Sign in to the Latch demo');
  await page.getByTestId('demo-sign-message').click();
  await page.getByTestId('demo-signature-valid').filter({ hasText: 'valid signature of the connected account' }).waitFor();
  const signed = wallet.requests.filter((r) => r.method === 'personal_sign');
  assert.equal(signed.length, 1);
  assert.equal(signed[0].topic, session.topic);
  assert.equal(signed[0].chainId, `eip155:${harness.latchd.info.networks[0].chainId}`);
  assert.deepEqual(signed[0].params, [toHex('Sign in to the Latch demo'), wallet.address]);
  assert.equal(await page.getByTestId('demo-signature').textContent(), signed[0].result);
});

test('a declined signature shows as an error on the page', async () => {
  const { page } = await openDemo();
  const { wallet } = await connectByQr(page);
  wallet.rejectNext('personal_sign');
  await page.getByTestId('demo-sign-message').click();
  await page.getByTestId('demo-sign-error').filter({ hasText: /rejected/i }).waitFor();
});

test('reload: the session survives, without a new pairing, and still signs', async () => {
  const { page, sockets } = await openDemo();
  const { wallet } = await connectByQr(page);
  const sessions = wallet.client.session.getAll().length;
  await page.reload();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  assert.equal(wallet.client.session.getAll().length, sessions, 'reloading created a new session');
  assert.equal(wallet.events.filter((e) => e.name === 'session_proposal').length, 1, 'reloading proposed a new session');
  await page.getByTestId('demo-sign-message').click();
  await page.getByTestId('demo-signature-valid').filter({ hasText: 'valid signature' }).waitFor();
  assert.equal(wallet.requests.filter((r) => r.method === 'personal_sign').length, 1);
  assert.ok(sockets.length >= 2, 'the reloaded page did not reconnect to the relay');
});

test('disconnect in the widget ends the session in the wallet', async () => {
  const { page } = await openDemo();
  const { wallet, session } = await connectByQr(page);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-disconnect').click();
  await page.getByTestId('latch-connect-button').waitFor();
  const deleted = await waitFor(() => wallet.events.find((e) => e.name === 'session_delete'));
  assert.equal(deleted.payload.topic, session.topic);
  assert.equal(wallet.client.session.getAll().length, 0);
  // and it stays disconnected after a reload
  await page.reload();
  await page.getByTestId('latch-connect-button').waitFor();
  assert.match((await page.getByTestId('demo-account').textContent()) ?? '', /"status": "disconnected"/);
});

test('disconnect in the wallet shows in the widget', async () => {
  const { page } = await openDemo();
  const { wallet, session } = await connectByQr(page);
  await wallet.disconnect(session.topic);
  await page.getByTestId('latch-connect-button').waitFor();
  assert.match((await page.getByTestId('demo-account').textContent()) ?? '', /"status": "disconnected"/);
  await page.reload();
  await page.getByTestId('latch-connect-button').waitFor();
  assert.match((await page.getByTestId('demo-account').textContent()) ?? '', /"status": "disconnected"/);
});

test('a declined connection says so and offers a new QR code, which connects', async () => {
  const { page } = await openDemo();
  const wallet = await newWallet();
  const first = await showPairing(page);
  wallet.rejectNext('session_proposal');
  // Spec §9: after a decline a new pairing is offered once 1 s has passed since the last attempt.
  await page.waitForTimeout(1_100);
  await wallet.pair(first);
  await page.getByTestId('latch-wc-error').filter({ hasText: 'Connection declined' }).waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  const second = await copyLink(page);
  assert.notEqual(second, first, 'the QR code still shows the declined pairing');
  await wallet.pair(second);
  await wallet.nextSession();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
});

test('leaving the QR code abandons its pairing: a late scan does not connect', async () => {
  const { page } = await openDemo();
  const wallet = await newWallet();
  const uri = await showPairing(page);
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  // The page stopped listening on that pairing: the wallet may still find the proposal in the relay's
  // mailbox and approve it, but the page never hears the answer, so the session is never settled.
  await wallet.pair(uri).catch(() => {});
  await page.waitForTimeout(3_000);
  assert.match((await page.getByTestId('demo-account').textContent()) ?? '', /"status": "disconnected"/);
  await page.getByTestId('latch-connect-button').waitFor();
  assert.ok(
    wallet.client.session.getAll().every((s) => !s.acknowledged),
    'the page acknowledged a session from an abandoned pairing',
  );
});

test('a registry wallet from All wallets connects through WalletConnect, with its logo, and becomes recent', async () => {
  const { testPage, page } = await openDemo();
  const wallet = await newWallet();
  await page.getByTestId('demo-open-all-wallets').click();
  await page.getByTestId('latch-all-wallets-search').fill('rainbow');
  const list = page.getByTestId('latch-view-AllWallets');
  await list.getByRole('button', { name: /^Rainbow$/ }).click();
  await page.getByRole('dialog', { name: 'Rainbow' }).getByTestId('latch-view-ConnectingWalletConnect').waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  // The wallet's image (latchd's /getWalletImage) sits in the middle of the code.
  await page.getByTestId('latch-wc-qr').locator('img[src*="/getWalletImage/"]').waitFor();
  await testPage.screenshot('walletconnect-wallet-light');
  const uri = await copyLink(page);
  await wallet.pair(uri);
  await wallet.nextSession();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  // Disconnected again, Connect lists it as recent.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-disconnect').click();
  await page.getByTestId('latch-connect-button').click();
  const recent = page.getByTestId('latch-view-Connect').getByRole('button', { name: /Rainbow/ });
  await recent.getByTestId('latch-wallet-tag').filter({ hasText: 'Recent' }).waitFor();
});

test('the WalletConnect QR view of the demo (ConnectingWalletConnectBasic) connects too', async () => {
  const { testPage, page } = await openDemo();
  const wallet = await newWallet();
  await page.getByTestId('demo-open-walletconnect').click();
  await page.getByTestId('latch-view-ConnectingWalletConnectBasic').waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  await testPage.screenshot('walletconnect-basic-light');
  const uri = await copyLink(page);
  await wallet.pair(uri);
  await wallet.nextSession();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
});

test('the WalletConnect SDK loads only when WalletConnect is picked or its session restored', async () => {
  const isSdk = (url) => /\/assets\/sdk-[^/]*\.js$/.test(new URL(url).pathname);
  // A visitor with a browser wallet: connecting and reloading never fetch the SDK.
  const injected = await harness.newPage();
  const injectedSdk = [];
  injected.page.on('request', (r) => isSdk(r.url()) && injectedSdk.push(r.url()));
  await injected.page.goto(harness.latchd.info.demoUrl);
  await injected.page.getByTestId('latch-connect-button').click();
  await injected.page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await injected.page.getByTestId('latch-account-button-address').first().waitFor();
  await injected.page.reload();
  await injected.page.getByTestId('latch-account-button-address').first().waitFor();
  assert.deepEqual(injectedSdk, [], 'the SDK loaded for a browser-wallet visitor');

  // Picking WalletConnect loads it; a reload with the session restores it (and loads it again).
  const { page } = await openDemo();
  const sdk = [];
  page.on('request', (r) => isSdk(r.url()) && sdk.push(r.url()));
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  assert.equal(sdk.length, 0, 'the Connect view loaded the SDK');
  const wallet = await newWallet();
  await page.getByTestId('latch-wallet-walletConnect').click();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  assert.equal(sdk.length, 1);
  await wallet.pair(await copyLink(page));
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  await page.reload();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
  assert.equal(sdk.length, 2);
});

/**
 * Polls `probe` until it returns a value.
 * @template T
 * @param {() => T | undefined} probe
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function waitFor(probe, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
