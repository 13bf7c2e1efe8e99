// node:test wiring for browser tests: one latchd dev and one Chromium per test file, a fresh browser context
// per page, and an afterEach that fails the test when a page contacted a third-party host or logged errors.
import { after, afterEach, before } from 'node:test';
import { launchBrowser } from './browser.mjs';
import { startLatchd } from './latchd.mjs';
import { serveDirectory } from './static.mjs';
import { installTestWallet } from '../wallet/wallet.mjs';

/**
 * @typedef {object} HarnessOptions
 * @property {string} [serve]  a directory to serve on a loopback port (harness.siteUrl)
 * @property {string[]} [latchdArgs]  extra `latchd dev` flags (e.g. --demo-dir to serve the demo)
 *
 * @typedef {import('./browser.mjs').TestPage & {wallet?: import('../wallet/wallet.mjs').TestWallet}} WalletPage
 */

/**
 * Registers before/afterEach/after hooks in the calling test file and returns the harness they fill in.
 * @param {HarnessOptions} [options]
 */
export function useHarness(options = {}) {
  const harness = {
    /** @type {import('./latchd.mjs').Latchd} */
    latchd: /** @type {any} */ (undefined),
    /** @type {import('./browser.mjs').TestBrowser} */
    browser: /** @type {any} */ (undefined),
    /** base URL of options.serve, no trailing slash */
    siteUrl: '',
    /** @type {(() => Promise<void>) | undefined} */
    closeSite: undefined,

    /**
     * A fresh page (own context, so own storage) with the test wallet installed unless wallet is false.
     * @param {{wallet?: false | Partial<import('../wallet/wallet.mjs').InstallOptions>}} [pageOptions]
     * @returns {Promise<WalletPage & {wallet: import('../wallet/wallet.mjs').TestWallet}>}
     */
    async newPage(pageOptions = {}) {
      /** @type {any} */
      const testPage = await harness.browser.newPage();
      if (pageOptions.wallet !== false) {
        testPage.wallet = await installTestWallet(testPage.page, { info: harness.latchd.info, ...pageOptions.wallet });
      }
      return testPage;
    },
  };

  before(async () => {
    // started side by side; whatever did start is kept so that after() stops it when another part failed
    const [latchd, browser, site] = await Promise.allSettled([
      startLatchd({ extraArgs: options.latchdArgs ?? [] }),
      launchBrowser(),
      options.serve ? serveDirectory(options.serve) : Promise.resolve(undefined),
    ]);
    if (latchd.status === 'fulfilled') harness.latchd = latchd.value;
    if (browser.status === 'fulfilled') harness.browser = browser.value;
    if (site.status === 'fulfilled' && site.value) {
      harness.siteUrl = site.value.url;
      harness.closeSite = site.value.close;
    }
    const failed = [latchd, browser, site].find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });

  afterEach(async (t) => {
    // TestContext.passed (Node ≥ 20.12) is false when the test body failed: keep a screenshot of its pages
    const passed = /** @type {{passed?: boolean}} */ (t).passed !== false;
    await harness.browser?.checkPages({ failedTest: passed ? undefined : t.name });
  });

  after(async () => {
    await Promise.allSettled([harness.browser?.close(), harness.latchd?.stop(), harness.closeSite?.()]);
  });

  return harness;
}
