// The Next.js App Router example (web/apps/next, built by scripts/test-next.sh) served by `next start` against a
// real `latchd dev`: the server renders the Latch buttons and wagmi's state from the request's cookie, and
// Chromium hydrates the page without a mismatch, connects the test wallet, keeps wagmi's state in the cookie and
// reloads connected. The harness fails a test on any console error (React reports hydration mismatches there)
// and on requests to hosts other than this machine.
import { strict as assert } from 'node:assert';
import { after, test } from 'node:test';
import { serialize } from '@wagmi/core';
import { useHarness } from '../lib/harness.mjs';
import { startNext } from '../lib/next.mjs';

const harness = useHarness();
/** @type {Promise<import('../lib/next.mjs').NextServer> | undefined} */
let started;

/** next start, once per file, on the first test's call (root-level before hooks do not wait for each other). */
function nextServer() {
  started ??= startNext({ apiUrl: harness.latchd.apiUrl, projectId: harness.latchd.info.projectId });
  return started;
}
after(async () => {
  await (await started?.catch(() => undefined))?.stop();
});

/** The cookie wagmi keeps its state in (core's LATCH_WAGMI_COOKIE + '.store'). */
const wagmiCookie = 'latch.wagmi.store';

/** A wagmi state cookie value as wagmi writes it: the visitor's last chain, nothing connected. */
const chainCookie = (chainId) => serialize({ state: { chainId, connections: new Map(), current: null }, version: 3 });

const truncated = (address) => `${address.slice(0, 4)}…${address.slice(-6)}`;

/** Asserts the page's rendered <main> matches; a failure shows <main>, not the page's scripts. */
function assertMain(html, pattern) {
  const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html.slice(0, 2000);
  assert.match(main, pattern, `server-rendered <main> does not match ${pattern}:\n${main}`);
}

test('the server renders the connect button and the chain wagmi kept in the cookie', async () => {
  const next = await nextServer();
  const plain = await fetch(`${next.url}/`);
  assert.equal(plain.status, 200, next.output());
  const html = await plain.text();
  assertMain(html, /<button[^>]*data-testid="latch-connect-button"[^>]*>Connect Wallet<\/button>/);
  assertMain(html, /data-testid="latch-network-button"/);
  assertMain(html, /wagmi chain: (<!-- -->)?Latch Dev \((<!-- -->)?31337/);
  // the modal is client-only
  assert.doesNotMatch(html, /role="dialog"/);

  const withCookie = await fetch(`${next.url}/`, { headers: { cookie: `${wagmiCookie}=${chainCookie(31338)}` } });
  assertMain(await withCookie.text(), /wagmi chain: (<!-- -->)?Latch Dev 2 \((<!-- -->)?31338/);
});

test('hydrates without a mismatch, also with the cookie, and the button opens the modal', async () => {
  const next = await nextServer();
  const { page, context } = await harness.newPage({ wallet: false });
  const origin = new URL(next.url);
  await context.addCookies([{ name: wagmiCookie, value: chainCookie(31338), domain: origin.hostname, path: '/' }]);
  const response = await page.goto(`${next.url}/`);
  assert.equal(response?.status(), 200);
  await page.getByTestId('chain-note').filter({ hasText: '31338' }).waitFor();
  // a click only opens the modal once React has hydrated the button
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
});

test('connects the test wallet, keeps wagmi state in the cookie, reloads connected', async () => {
  const next = await nextServer();
  const { page, wallet, context } = await harness.newPage();
  await page.goto(`${next.url}/`);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();

  const cookie = (await context.cookies(next.url)).find((c) => c.name === wagmiCookie);
  assert.ok(cookie, `wagmi wrote no ${wagmiCookie} cookie`);
  assert.ok(decodeURIComponent(cookie.value).toLowerCase().includes(wallet.address.toLowerCase()), cookie.value);

  // the server now reads the connection from the cookie; the page still hydrates cleanly and reconnects
  await page.reload();
  await page.getByTestId('latch-account-button-address').first().filter({ hasText: truncated(wallet.address) }).waitFor();
});
