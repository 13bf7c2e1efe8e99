// Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core, one fresh profile per run,
// and pages that refuse (and report) every request to a host other than this machine.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** Debian's Chromium; scripts/install-chromium.sh installs it. */
export const chromiumPath = process.env.LATCH_CHROMIUM ?? '/usr/bin/chromium';

const e2eDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * Where TestPage.screenshot writes: web/e2e/screenshots-out/<name>.png (ignored by git), or the committed
 * web/e2e/screenshots/ when LATCH_E2E_SCREENSHOTS=commit (scripts/screenshots.sh, `make screenshots`), so a test
 * run never changes the committed pictures.
 */
export const screenshotDir = screenshotDirFor(process.env.LATCH_E2E_SCREENSHOTS);

/**
 * @param {string | undefined} mode  unset or "" (test runs), or "commit"
 * @returns {string}
 */
export function screenshotDirFor(mode) {
  if (mode === undefined || mode === '') return join(e2eDir, 'screenshots-out');
  if (mode === 'commit') return join(e2eDir, 'screenshots');
  throw new Error(`LATCH_E2E_SCREENSHOTS=${JSON.stringify(mode)}: leave it unset (tests write screenshots-out/) or set "commit"`);
}

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Belt and braces behind the route guard: a request that bypasses Playwright's routing (none should) cannot
  // even resolve a name other than the loopback ones.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether the harness lets a request through: http(s)/ws(s) to the loopback host, or an in-page data:/blob: URL.
 * Latch promises that no host but your own is contacted; in tests "your own" is this machine.
 * @param {string} url
 */
export function isLocalUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  return loopbackHosts.has(parsed.hostname);
}

/**
 * @typedef {object} BlockedRequest
 * @property {string} url
 * @property {string} method
 * @property {string} resourceType  document, fetch, script, websocket…
 */

/** A page in its own browser context, with the third-party-host guard and error capture installed. */
export class TestPage {
  /**
   * @param {import('playwright-core').BrowserContext} context
   * @param {import('playwright-core').Page} page
   */
  constructor(context, page) {
    this.context = context;
    this.page = page;
    /** @type {BlockedRequest[]} requests to other hosts, aborted by the guard */
    this.blockedRequests = [];
    /** @type {string[]} console messages of type "error" */
    this.consoleErrors = [];
    /** @type {Error[]} uncaught exceptions and unhandled rejections in the page */
    this.pageErrors = [];
    /** @type {RegExp[]} console errors a test expects (e.g. the guard's own abort) */
    this.allowedConsoleErrors = [];
  }

  /** @param {import('playwright-core').BrowserContext} context */
  static async create(context) {
    const page = await context.newPage();
    const testPage = new TestPage(context, page);
    await testPage.#installGuard();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const location = message.location();
      testPage.consoleErrors.push(location?.url ? `${message.text()} (${location.url}:${location.lineNumber})` : message.text());
    });
    page.on('pageerror', (error) => testPage.pageErrors.push(error));
    return testPage;
  }

  async #installGuard() {
    await this.context.route('**/*', (route) => {
      const request = route.request();
      if (isLocalUrl(request.url())) return route.fallback();
      this.blockedRequests.push({ url: request.url(), method: request.method(), resourceType: request.resourceType() });
      return route.abort('blockedbyclient');
    });
    await this.context.routeWebSocket(/.*/, (ws) => {
      if (isLocalUrl(ws.url())) {
        ws.connectToServer();
        return;
      }
      this.blockedRequests.push({ url: ws.url(), method: 'GET', resourceType: 'websocket' });
      ws.close({ code: 1008, reason: 'blocked by the Latch test harness: not a loopback host' });
    });
  }

  /** Fails when the page tried to reach a host other than this machine. */
  assertNoThirdPartyRequests() {
    if (this.blockedRequests.length === 0) return;
    const list = this.blockedRequests.map((r) => `  ${r.method} ${r.url} (${r.resourceType})`).join('\n');
    throw new Error(`the page tried to contact third-party hosts:\n${list}`);
  }

  /** Fails on any page error, and on console errors no test declared with allowConsoleErrors. */
  assertNoErrors() {
    const consoleErrors = this.consoleErrors.filter((text) => !this.allowedConsoleErrors.some((re) => re.test(text)));
    if (this.pageErrors.length === 0 && consoleErrors.length === 0) return;
    const lines = [
      ...this.pageErrors.map((e) => `  page error: ${e.stack ?? e.message}`),
      ...consoleErrors.map((text) => `  console error: ${text}`),
    ];
    throw new Error(`the page reported errors:\n${lines.join('\n')}`);
  }

  /** @param {...RegExp} patterns console errors that are expected and not a failure */
  allowConsoleErrors(...patterns) {
    this.allowedConsoleErrors.push(...patterns);
  }

  /**
   * Returns the blocked requests and forgets them, for a test that provokes one on purpose.
   * @returns {BlockedRequest[]}
   */
  takeBlockedRequests() {
    return this.blockedRequests.splice(0);
  }

  /**
   * Saves a full-page screenshot to screenshotDir/<name>.png and returns its path.
   * @param {string} name  file name without extension; [a-z0-9._-] only
   */
  async screenshot(name) {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name ${JSON.stringify(name)}: use letters, digits, . _ -`);
    await mkdir(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    // Finish CSS transitions first, so the picture shows the settled view, not a frame of its fade-in.
    await this.page.screenshot({ path, fullPage: true, animations: 'disabled' });
    return path;
  }

  async close() {
    await this.context.close();
  }
}

/**
 * Launches Chromium with a fresh temporary profile.
 * newPage() opens each page in its own context (fresh storage); checkPages() asserts every page opened since
 * the last check stayed on this machine and reported no errors, then closes them — call it in afterEach.
 */
export async function launchBrowser() {
  const profileDir = await mkdtemp(join(tmpdir(), 'latch-e2e-chromium-'));
  // launchPersistentContext is the only way to give Chromium a profile dir through Playwright; its default
  // context stays unused and every test page gets a fresh context of its own (browser.newContext()).
  const persistent = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
  const browser = persistent.browser();
  if (!browser) throw new Error('Chromium launched without a Browser object');
  /** @type {Set<TestPage>} */
  const open = new Set();

  return {
    browser,

    /**
     * @param {import('playwright-core').BrowserContextOptions} [contextOptions]
     * @returns {Promise<TestPage>}
     */
    async newPage(contextOptions = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
      const testPage = await TestPage.create(context);
      open.add(testPage);
      return testPage;
    },

    /**
     * Asserts the pages opened since the last call stayed local and error-free, then closes them.
     * @param {{failedTest?: string}} [options]  name of a test that failed: its pages are screenshotted first
     */
    async checkPages(options = {}) {
      const pages = [...open];
      open.clear();
      const failures = [];
      for (const [index, testPage] of pages.entries()) {
        if (options.failedTest) {
          const slug = options.failedTest.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
          await testPage.screenshot(`failed-${slug}${pages.length > 1 ? `-${index + 1}` : ''}`).catch(() => {});
        }
        for (const check of [() => testPage.assertNoThirdPartyRequests(), () => testPage.assertNoErrors()]) {
          try {
            check();
          } catch (err) {
            failures.push(err.message);
          }
        }
        await testPage.close().catch(() => {});
      }
      if (failures.length > 0) throw new Error(failures.join('\n'));
    },

    async close() {
      for (const testPage of open) await testPage.close().catch(() => {});
      open.clear();
      await persistent.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof launchBrowser>>} TestBrowser */
