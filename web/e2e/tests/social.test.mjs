// Social login end to end (issue 18): the demo dapp served by a real
// `latchd dev`, whose development identity provider stands in for every
// provider without credentials. The popup goes to the stand-in's page, a
// test user logs in, latchd's callback on the frame origin hands the result
// to the page, the frame exchanges it (PKCE) for a session and the wallet
// connects. Build the web packages (the frame included) and bin/latchd-dev
// first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { approveInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });
const email = `social-${Date.now()}@example.com`;
const { login } = emailLogin(harness, email);

/** @typedef {import('playwright-core').Page} Page */

const base64url = (/** @type {Buffer} */ b) => b.toString('base64url');

async function openDemo() {
  const testPage = await harness.newPage({ wallet: false });
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  await testPage.page.goto(/** @type {string} */ (harness.latchd.info.demoUrl));
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** The demo's account as it prints it. */
async function account(/** @type {Page} */ page) {
  return JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent()));
}

/**
 * Clicks a provider's button in Connect and logs in as a test user of the development identity provider:
 * `user` picks a listed one, else name/email/verified describe one.
 * @param {Page} page
 * @param {string} provider
 * @param {{user?: string, name?: string, email?: string, verified?: boolean, more?: boolean}} who
 */
async function socialLogin(page, provider, who) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  if (who.more) {
    await page.getByTestId('latch-social-more').click();
    await page.getByTestId('latch-all-socials').waitFor();
  }
  const popupPromise = page.waitForEvent('popup');
  await page.getByTestId(`latch-social-${provider}`).click();
  const popup = await popupPromise;
  await popup.getByTestId('devidp-banner').waitFor().catch(async (e) => {
    const err = await page.getByTestId('latch-social-error').textContent({ timeout: 100 }).catch(() => 'no error shown');
    throw new Error(`${e.message}\n${err}\npopup at ${popup.isClosed() ? 'closed' : popup.url()}: ${popup.isClosed() ? '' : (await popup.content()).slice(0, 300)}`);
  });
  assert.match(/** @type {string} */ (await popup.getByTestId('devidp-banner').textContent()), /Development identity provider — test users only\./);
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  if (who.user) {
    await popup.getByTestId(`devidp-user-${who.user}`).click();
  } else {
    await popup.getByTestId('devidp-name').fill(who.name ?? '');
    await popup.getByTestId('devidp-email').fill(who.email ?? '');
    if (who.verified) await popup.getByTestId('devidp-verified').check();
    await popup.getByTestId('devidp-custom').click();
  }
  await closed;
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
  return /** @type {string} */ ((await account(page)).address);
}

async function signOut(/** @type {Page} */ page) {
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-disconnect').click();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'disconnected');
}

test('Connect shows the social buttons in the spec order, the first three then More, which opens every social', async () => {
  const { page } = await openDemo();
  await page.getByTestId('latch-connect-button').click();
  const list = page.getByTestId('latch-social-login');
  await list.waitFor();
  const shown = await list.locator('[data-testid^="latch-social-"]:not([data-testid="latch-social-more"])').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  assert.deepEqual(shown, ['latch-social-google', 'latch-social-x', 'latch-social-farcaster']);
  await page.getByTestId('latch-social-more').click();
  const all = page.getByTestId('latch-all-socials');
  await all.waitFor();
  const names = await all.locator('[data-testid^="latch-social-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  assert.deepEqual(names, ['latch-social-google', 'latch-social-x', 'latch-social-farcaster', 'latch-social-discord', 'latch-social-apple', 'latch-social-github', 'latch-social-facebook']);
  assert.equal(await page.locator('.latch-header-title').textContent(), 'All socials');
});

test('google through the popup: the wallet connects and signs; the same person by e-mail (verified address) gets the same address', async () => {
  const testPage = await openDemo();
  const { page } = testPage;
  const address = await socialLogin(page, 'google', { name: 'Social Visitor', email, verified: true });
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);

  await page.getByTestId('demo-sign-input').fill('hello from a social login');
  await page.getByTestId('demo-sign-message').click();
  await approveInFrame(page);
  await page.getByTestId('demo-signature-valid').waitFor();
  assert.equal(await page.getByTestId('demo-signature-valid').textContent(), 'valid signature of the connected account');

  // Reload: still connected (the frame kept the session).
  await page.reload();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
  assert.equal((await account(page)).address, address);

  // github and Apple (form post) on new devices (browser profiles of their own), and the e-mail login of the same
  // verified address, reach the same wallet.
  for (const provider of ['github', 'apple']) {
    const other = await openDemo();
    assert.equal(await socialLogin(other.page, provider, { name: 'Social Visitor', email, verified: true, more: true }), address, provider);
  }
  const byEmail = await openDemo();
  byEmail.allowConsoleErrors(/status of 429/);
  assert.equal(await login(byEmail.page), address);
});

test('every provider of the development identity provider logs in through the popup (the login bound to this browser)', async () => {
  for (const provider of ['google', 'x', 'discord', 'apple', 'github', 'facebook']) {
    const { page } = await openDemo();
    const address = await socialLogin(page, provider, { user: 'ada', more: !['google', 'x'].includes(provider) });
    assert.match(address, /^0x[0-9a-fA-F]{40}$/, provider);
  }
});

/**
 * The frame's start as a script outside any browser makes it (issue 40, finding 3): the attacker's PKCE challenge
 * and device, the page's origin as parentOrigin, and an Origin header only when `origin` is given.
 * @param {string} challenge
 * @param {string | undefined} origin
 */
async function attackerStart(challenge, origin) {
  const { apiUrl, info } = harness.latchd;
  const res = await fetch(`${apiUrl}/auth/v1/social/start?projectId=${info.projectId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify({ provider: 'google', deviceId: ATTACKER_DEVICE, codeChallenge: challenge, parentOrigin: demoOrigin(), returnUrl: `${demoOrigin()}/leaky-page` }),
  });
  return { status: res.status, body: /** @type {{uri?: string, reasons?: {description: string}[]}} */ (await res.json()) };
}

const ATTACKER_DEVICE = 'attackers-own-device-0123456789';
const demoOrigin = () => new URL(/** @type {string} */ (harness.latchd.info.demoUrl)).origin;

test("the social-login attack fails: a start outside a browser is refused, a login begun elsewhere hands the victim's browser nothing, and the leaked code redeems nothing", async () => {
  const { apiUrl, info } = harness.latchd;
  const frame = info.frameOrigin.replace(/\/$/, '');
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());

  // As found: no Origin at all.
  const bare = await attackerStart(challenge, undefined);
  assert.equal(bare.status, 403, JSON.stringify(bare.body));
  assert.match(bare.body.reasons?.[0]?.description ?? '', /the request has no Origin/);

  // With a forged Origin latchd records the login, but only the page itself can begin it in a browser.
  const started = await attackerStart(challenge, frame);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const begin = /** @type {string} */ (started.body.uri);
  assert.ok(begin.startsWith(`${frame}/auth/v1/social/begin?state=`), begin);
  const victim = await harness.browser.newPage();
  victim.allowConsoleErrors(/status of 40[35]/);
  // The begin URL sent to the victim as a link: nothing begins.
  const asLink = await victim.page.goto(begin);
  assert.equal(asLink?.status(), 405);
  // Posted from another site's page (here latchd's API origin, not the demo's): refused.
  await victim.page.goto(`${apiUrl}/healthz`);
  const [posted] = await Promise.all([
    victim.page.waitForNavigation(),
    victim.page.evaluate((action) => {
      const f = document.createElement('form');
      f.method = 'post';
      f.action = action;
      document.body.append(f);
      f.submit();
    }, begin),
  ]);
  assert.equal(posted?.status(), 403);
  assert.match(await victim.page.textContent('#latch-social-error') ?? '', /can only be begun by the page that started it/);

  // So the attacker begins it in their own client (the cookie stays there) and sends the victim the provider's page.
  const own = await fetch(begin, { method: 'POST', headers: { Origin: demoOrigin() }, redirect: 'manual' });
  assert.equal(own.status, 303);
  const provider = /** @type {string} */ (own.headers.get('location'));
  await victim.page.goto(provider);
  await victim.page.getByTestId('devidp-user-ada').click();
  await victim.page.waitForURL(/\/auth\/v1\/social\/callback/);
  await victim.page.locator('#latch-social-error').waitFor();
  assert.match(await victim.page.textContent('#latch-social-error') ?? '', /started in another browser/);
  assert.doesNotMatch(victim.page.url(), /result_uri/);

  // The code leaks from the victim's address bar: a result made from it is refused at redemption.
  const leaked = new URL(victim.page.url());
  const res = await fetch(`${apiUrl}/auth/v1/social/connect?projectId=${info.projectId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: frame },
    body: JSON.stringify({ uri: `${frame}/auth/v1/social/result${leaked.search}`, codeVerifier: verifier, deviceId: ATTACKER_DEVICE }),
  });
  const refused = await res.json();
  assert.equal(res.status, 400, JSON.stringify(refused));
  assert.match(refused.reasons?.[0]?.description ?? '', /already used/);
});

test('an unverified e-mail opens another wallet; a closed popup says so and connects nothing', async () => {
  const first = await openDemo();
  const verified = await socialLogin(first.page, 'google', { name: 'Social Visitor', email, verified: true });
  const { page } = await openDemo();
  const other = await socialLogin(page, 'discord', { name: 'Someone Else', email, verified: false, more: true });
  assert.notEqual(other, verified);
  await signOut(page);

  await page.getByTestId('latch-connect-button').click();
  const popupPromise = page.waitForEvent('popup');
  await page.getByTestId('latch-social-google').click();
  const popup = await popupPromise;
  await popup.getByTestId('devidp-banner').waitFor();
  await popup.close();
  await page.getByTestId('latch-social-error').waitFor();
  assert.equal(await page.getByTestId('latch-social-error').textContent(), 'The login window was closed before the login finished');
  assert.equal((await account(page)).status, 'disconnected');
});

/**
 * A scripted Farcaster client: reads the farcaster://connect URI the widget shows, writes the Sign In With
 * Farcaster message for the dev custody key's fid (latchd dev registers it as fid 1 in the dev ID registry; the key
 * comes from a fixed label, docs/social.md), signs it and posts it to the relay the URI names.
 * @param {string} uri
 * @param {`0x${string}`} key
 */
async function farcasterClient(uri, key) {
  const q = new URL(uri.replace(/^farcaster:/, 'https:')).searchParams;
  const account = privateKeyToAccount(key);
  const message = [
    `${q.get('domain')} wants you to sign in with your Ethereum account:`,
    account.address,
    '',
    'Farcaster Auth',
    '',
    `URI: ${q.get('siweUri')}`,
    'Version: 1',
    `Chain ID: ${q.get('chainId')}`,
    `Nonce: ${q.get('nonce')}`,
    `Issued At: ${new Date().toISOString()}`,
    `Expiration Time: ${q.get('expirationTime')}`,
    `Not Before: ${q.get('notBefore')}`,
    'Resources:',
    '- farcaster://fid/1',
  ].join('\n');
  const signature = await account.signMessage({ message });
  const res = await fetch(/** @type {string} */ (q.get('relay')), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${q.get('channelToken')}` },
    body: JSON.stringify({ message, signature, fid: 1, username: 'latch-dev' }),
  });
  return { status: res.status, body: await res.json() };
}

test('farcaster: the widget shows the QR code, a scripted Farcaster client signs in on the channel, the visitor is connected', async () => {
  const testPage = await openDemo();
  const { page } = testPage;
  // The Farcaster client that signs with a key that is not fid 1's custody is refused (a 401 the page does not see).
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-social-farcaster').click();
  await page.getByTestId('latch-farcaster-view').waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  const uri = /** @type {string} */ (await page.getByTestId('latch-farcaster-open').getAttribute('href'));
  assert.match(uri, /^farcaster:\/\/connect\?/);
  const stranger = await farcasterClient(uri, keccak256(toBytes('not the custody key')));
  assert.equal(stranger.status, 401, JSON.stringify(stranger.body));
  assert.equal((await account(page)).status, 'disconnected');
  const custody = keccak256(toBytes('latch devnet farcaster custody v1'));
  const ok = await farcasterClient(uri, custody);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected', undefined, { timeout: 30_000 });
  const address = /** @type {string} */ ((await account(page)).address);
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);

  // Going back from the Farcaster view unconnected resets it: the next visit opens a new channel.
  const other = await openDemo();
  await other.page.getByTestId('latch-connect-button').click();
  await other.page.getByTestId('latch-social-farcaster').click();
  await other.page.getByTestId('latch-farcaster-open').waitFor();
  const first = await other.page.getByTestId('latch-farcaster-open').getAttribute('href');
  await other.page.getByTestId('latch-modal-back').click();
  await other.page.getByTestId('latch-social-farcaster').click();
  await other.page.waitForFunction((prev) => {
    const a = document.querySelector('[data-testid="latch-farcaster-open"]');
    return a && a.getAttribute('href') !== prev;
  }, first);
  // The same fid on this device reaches the same wallet.
  const again = await farcasterClient(/** @type {string} */ (await other.page.getByTestId('latch-farcaster-open').getAttribute('href')), custody);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  await other.page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected', undefined, { timeout: 30_000 });
  assert.equal((await account(other.page)).address, address);
});

test('a Telegram mini-app logs in by redirect: back on the page with result_uri, connected, result_uri removed from the address', async () => {
  const testPage = await openDemo();
  const { page } = testPage;
  // Telegram's WebApp object, as its mini-app script sets it (a desktop client: every provider offered).
  await page.addInitScript(() => {
    /** @type {any} */ (window).Telegram = { WebApp: { platform: 'tdesktop' } };
  });
  await page.reload();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-social-google').click();
  // No popup: the page itself goes to the (development) provider.
  await page.getByTestId('devidp-banner').waitFor();
  await page.getByTestId('devidp-user-ada').click();
  await page.waitForURL(/[?&]result_uri=/);
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected', undefined, { timeout: 30_000 });
  await page.waitForFunction(() => !location.search.includes('result_uri'));
  assert.match(/** @type {string} */ ((await account(page)).address), /^0x[0-9a-fA-F]{40}$/);
});
