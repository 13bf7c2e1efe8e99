// The Connect view's prefetch in the browser (issue 41): pointer-over on the connect button loads the view's lazy
// chunks before the click, so the click's first frame shows the whole view; a click with no prefetch still shows
// it, its parts as they arrive. The page's idle prefetch is switched off here (requestIdleCallback never calls
// back) so that only the pointer decides. Build the web packages first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

/** The chunks of the Connect view's lazy parts (the demo with ?legal=links shows all three). */
const lazyParts = /\/assets\/(EmbeddedViews|SocialLogin|LegalConsent)-[\w-]+\.js$/;

/**
 * The demo with legal links, started (latchd's features read), no idle time; returns the page and the lazy parts
 * whose chunks it has requested (a name once, however often: Vite's preload helper and the import() each request it).
 */
async function startedDemo() {
  const testPage = await harness.newPage();
  const { page } = testPage;
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  const chunks = new Set();
  page.on('request', (request) => {
    const match = lazyParts.exec(new URL(request.url()).pathname);
    if (match) chunks.add(match[1]);
  });
  await page.goto(`${harness.latchd.info.demoUrl}?legal=links`);
  await page.getByTestId('latch-connect-button').waitFor();
  await page.waitForLoadState('networkidle');
  return { page, chunks };
}

/** Clicks the connect button (the click event alone) and returns what the view held in the commit that first showed it. */
function clickAndRecordFirstFrame(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          const view = document.querySelector('[data-testid="latch-view-Connect"]');
          if (!view) return;
          observer.disconnect();
          const has = (id) => view.querySelector(`[data-testid="${id}"]`) !== null;
          resolve({
            spinners: view.querySelectorAll('.latch-spinner').length,
            email: has('latch-email-login'),
            socials: has('latch-social-login'),
            legal: has('latch-legal'),
            count: has('latch-all-wallets-count'),
          });
        });
        observer.observe(document.body, { childList: true, subtree: true });
        document.querySelector('[data-testid="latch-connect-button"]').click();
      }),
  );
}

test('pointer-over loads the view’s chunks before the click; the click’s first frame has every part', async () => {
  const { page, chunks } = await startedDemo();
  assert.deepEqual([...chunks], [], 'a lazy part was loaded before any pointer-over');
  const button = page.getByTestId('latch-connect-button');
  await button.hover();
  await page.mouse.move(0, 0);
  await button.hover();
  // The prefetch has ended (its chunks loaded and run), not just its requests: under load a chunk could still be
  // running after the network was idle, and the click's first frame then lacked its part.
  await page.locator('[data-testid="latch-connect-button"][data-prefetched]').waitFor();
  assert.deepEqual([...chunks].sort(), ['EmbeddedViews', 'LegalConsent', 'SocialLogin']);
  const first = await clickAndRecordFirstFrame(page);
  assert.deepEqual(first, { spinners: 0, email: true, socials: true, legal: true, count: true });
});

test('a click with no prefetch shows the view at once and its parts as they load', async () => {
  const { page, chunks } = await startedDemo();
  const first = await clickAndRecordFirstFrame(page);
  assert.equal(first.email, false, 'the e-mail field cannot be in the first frame without its chunk');
  await page.getByTestId('latch-email-input').waitFor();
  await page.getByTestId('latch-social-login').waitFor();
  await page.getByTestId('latch-legal').waitFor();
  await page.getByTestId('latch-all-wallets-count').waitFor();
  assert.deepEqual([...chunks].sort(), ['EmbeddedViews', 'LegalConsent', 'SocialLogin']);
});
