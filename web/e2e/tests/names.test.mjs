// Account names end to end (issue 23, spec §3, §4, §5): the demo dapp served
// by a real `latchd dev`, the e-mail wallet (names are registered by the auth
// connector's account, spec §5), Chromium. The visitor registers `newcomer`
// from the Account view, approves the signature, sees the name there, sends to
// `newcomer.latch.test` (resolved through the dev chain's ENS contracts and
// latchd's CCIP-Read gateway), and viem's own ENS client resolves the same name.
// The registration reaches latchd from the wallet's frame with its session,
// which latchd requires (issue 33); an injected wallet's account is offered
// no registration, the view says why, and latchd refuses its signed request.
// Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, defineChain, getAddress, http } from 'viem';
import { normalize } from 'viem/ens';
import { approvalShown, approveInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';
import { walletRequest } from '../wallet/wallet.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;

/** The e-mail wallet's address of the first test; the second expects its name. */
let owner = '';

/** @param {{wallet?: false}} [options] */
async function openDemo(options = { wallet: false }) {
  const testPage = await harness.newPage(options);
  // A new e-mail account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Logs in with a new e-mail address and opens the Account view; returns the wallet's address. */
async function loginAndOpenAccount(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ email) {
  const address = await emailLogin(harness, email).login(page);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  return address;
}

/** latchd's reverse record of an address, asked directly. */
async function reverse(/** @type {string} */ address) {
  const { apiUrl, projectId } = harness.latchd.info;
  const res = await fetch(`${apiUrl}/v1/profile/reverse/${address}?apiVersion=2&projectId=${projectId}`);
  assert.equal(res.status, 200);
  return /** @type {{name: string}[]} */ (await res.json());
}

test('registers newcomer for the e-mail wallet: rules as typed, approve the signature, success, the name in Account; Send and viem resolve newcomer.latch.test', async () => {
  const t = await openDemo();
  const { page } = t;
  const address = await loginAndOpenAccount(page, `names-${Date.now()}@example.com`);
  owner = address;
  assert.deepEqual(await reverse(address), []);

  await page.getByTestId('latch-account-choose-name').click();
  const view = page.getByTestId('latch-view-RegisterAccountName');
  await view.waitFor();
  const input = view.getByTestId('latch-register-name-input');
  const error = view.getByTestId('latch-register-name-error');
  const submit = view.getByTestId('latch-register-name-submit');

  // The rules' messages as the visitor types (spec §5), with Register off.
  await input.fill('new');
  await error.filter({ hasText: 'A name must be at least 4 characters' }).waitFor();
  assert.equal(await submit.isDisabled(), true);
  await input.fill('new_comer');
  await error.filter({ hasText: 'A name may only contain letters, digits and hyphens, not "_"' }).waitFor();
  await input.fill('ne--comer');
  await error.filter({ hasText: 'A name must not have hyphens as its third and fourth characters' }).waitFor();

  // A valid, free name: latchd says it is available.
  await input.fill('Newcomer');
  await view.getByTestId('latch-register-name-available').filter({ hasText: 'newcomer.latch.test is available' }).waitFor();
  await t.screenshot('names-register');
  // The registration is posted by the e-mail wallet's frame, with the wallet's session.
  const posted = page.waitForRequest((req) => req.method() === 'POST' && new URL(req.url()).pathname === '/v1/profile/account');
  await submit.click();

  // The wallet signs {name, attributes, timestamp} (api-shapes §3.6): the e-mail wallet shows it for approval.
  const message = JSON.parse(/** @type {string} */ (await (await approvalShown(page)).getByTestId('latch-approve-message').textContent()));
  assert.equal(message.name, 'newcomer.latch.test');
  assert.deepEqual(message.attributes, {});
  assert.ok(Math.abs(message.timestamp - Date.now() / 1000) < 30, `timestamp ${message.timestamp} is now, in seconds`);
  await approveInFrame(page);
  const success = page.getByTestId('latch-view-RegisterAccountNameSuccess');
  await success.getByTestId('latch-register-name-success').filter({ hasText: 'newcomer.latch.test is now your name' }).waitFor();
  assert.deepEqual((await reverse(address)).map((r) => r.name), ['newcomer.latch.test']);
  const request = await posted;
  assert.match(request.headers().authorization ?? '', /^Bearer \S+$/, 'the session came with the registration');
  assert.equal(new URL(request.frame().url()).origin, harness.latchd.info.frameOrigin, 'posted by the frame');

  // Done: Account shows the name instead of Choose name.
  await success.getByTestId('latch-register-name-done').click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-name').textContent(), 'newcomer.latch.test');
  assert.equal(await page.getByTestId('latch-account-choose-name').count(), 0);

  // Send: the receiver name resolves through the dev chain's ENS contracts and latchd's gateway.
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  await page.getByTestId('latch-send-receiver').fill('newcomer.latch.test');
  const resolved = page.getByTestId('latch-send-receiver-resolved');
  await resolved.waitFor({ timeout: 15_000 });
  const shown = /** @type {string} */ (await resolved.textContent());
  assert.ok(shown.includes('newcomer.latch.test'), shown);
  // The address as Send shows it: 4 leading and 6 trailing characters.
  const lower = address.toLowerCase();
  assert.ok(shown.toLowerCase().includes(`${lower.slice(0, 4)}…${lower.slice(-6)}`), `${shown} names ${address}`);
});

test('viem resolves newcomer.latch.test on the dev chain through CCIP-Read, and a taken name shows suggestions', async () => {
  const network = harness.latchd.info.networks.find((n) => n.chainId === devA);
  assert.ok(network, 'dev network 31337');
  const chain = defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [network.rpcUrl] } },
    contracts: {
      ensRegistry: { address: /** @type {`0x${string}`} */ (network.ensRegistry) },
      ensUniversalResolver: { address: /** @type {`0x${string}`} */ (network.ensUniversalResolver) },
    },
  });
  const client = createPublicClient({ chain, transport: http(network.rpcUrl) });
  // Registered by the previous test (same latchd).
  assert.ok(owner, 'the first test registered newcomer');
  assert.deepEqual((await reverse(owner)).map((r) => r.name), ['newcomer.latch.test']);
  assert.equal(await client.getEnsAddress({ name: normalize('newcomer.latch.test') }), getAddress(owner));
  assert.equal(await client.getEnsAddress({ name: normalize('nobody-here.latch.test') }), null);

  // Another e-mail account asks for the same name: taken, with free names like it.
  const { page } = await openDemo();
  await loginAndOpenAccount(page, `names-other-${Date.now()}@example.com`);
  await page.getByTestId('latch-account-choose-name').click();
  const view = page.getByTestId('latch-view-RegisterAccountName');
  await view.getByTestId('latch-register-name-input').fill('newcomer');
  await view.getByTestId('latch-register-name-taken').filter({ hasText: 'newcomer.latch.test is taken' }).waitFor();
  assert.equal(await view.getByTestId('latch-register-name-submit').isDisabled(), true);
  await view.getByTestId('latch-register-name-suggestion-newcomer1').click();
  assert.equal(await view.getByTestId('latch-register-name-input').inputValue(), 'newcomer1');
  await view.getByTestId('latch-register-name-available').filter({ hasText: 'newcomer1.latch.test is available' }).waitFor();
});

test("an injected wallet's account cannot register: no Choose name, the view shows spec §5's message, latchd refuses its signed registration", async () => {
  const t = await openDemo({});
  const { page } = t;
  // The page's own request below is refused (401): Chromium logs that as a console error.
  t.allowConsoleErrors(/status of 401/);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  // The Account view asks latchd for the account's name; once answered (none), no Choose name appears.
  const asked = page.waitForResponse((res) => res.url().includes('/v1/profile/reverse/'), { timeout: 15_000 });
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal((await asked).status(), 200);
  const address = /** @type {string[]} */ (await walletRequest(page, { method: 'eth_accounts' }))[0];
  // Once the widget holds the answer (no name), Account has rendered without Choose name.
  await page.waitForFunction((a) => /** @type {any} */ (window).latch._internal.root.getState().names?.profileNames?.[a] === null, address.toLowerCase());
  assert.equal(await page.getByTestId('latch-account-choose-name').count(), 0);

  // The app opens the view anyway: it says why, and offers no form to fill in vain.
  await page.evaluate(() => /** @type {any} */ (window).latch.open({ view: 'RegisterAccountName' }));
  const view = page.getByTestId('latch-view-RegisterAccountName');
  await view.getByTestId('latch-register-name-unavailable').filter({ hasText: 'Address or auth connector not found' }).waitFor();
  assert.equal(await view.getByTestId('latch-register-name-input').count(), 0);
  assert.equal(await view.getByTestId('latch-register-name-submit').count(), 0);
  await t.screenshot('names-injected-wallet');

  // What a page script could do with the injected wallet: sign the registration and post it. latchd wants the
  // e-mail wallet's session, which the page does not have.
  const { apiUrl, projectId } = harness.latchd.info;
  const message = JSON.stringify({ name: 'injected.latch.test', attributes: {}, timestamp: Math.floor(Date.now() / 1000) });
  const signature = await walletRequest(page, { method: 'personal_sign', params: [message, address] });
  const answer = await page.evaluate(async ({ url, body }) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body });
    return { status: res.status, body: await res.json() };
  }, { url: `${apiUrl}/v1/profile/account?projectId=${projectId}`, body: JSON.stringify({ coin_type: (0x80000000 | devA) >>> 0, address, message, signature }) });
  assert.equal(answer.status, 401);
  assert.equal(answer.body.reasons[0].description, 'Address or auth connector not found');
  assert.deepEqual(await reverse(address), []);
});
