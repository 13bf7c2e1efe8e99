// The widget's languages in the browser (issue 24): the demo opened with ?locale=de (long compound words), ja and
// ar (right to left) renders Connect, All Wallets, Account, Send and Networks with each locale's titles, nothing in
// the dialog overflowing its box, and, in Arabic, a mirrored header (Back on the right, Close on the left) with
// addresses still reading left to right. Each view's dialog is saved as screenshots/<locale>-<view>.png. English
// stays the default of an en-US browser. The expected titles are read from the catalogue files
// (packages/core/src/i18n/locales/<locale>.ts); a key a catalogue lacks falls back to English, as the widget does.
// Build the web packages after a catalogue changed (scripts/test-e2e.sh builds them).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { screenshotDir } from '../lib/browser.mjs';
import { useHarness } from '../lib/harness.mjs';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
const demoDir = join(webDir, 'apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

/**
 * Imports one of core's TypeScript sources that imports nothing (a locale catalogue, messages.ts) by transpiling it.
 * @param {string} path  relative to web/packages/core/src
 */
async function importCoreSource(path) {
  const source = readFileSync(join(webDir, 'packages/core/src', path), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
}

/** @type {Record<string, string>} */
const english = (await importCoreSource('messages.ts')).messages.en;

/**
 * The header title the widget shows for a view in a locale: the catalogue's `view.<View>`, else English's, else the
 * view's name in words (ModalDialog's viewTitle).
 * @param {Record<string, string>} catalogue
 * @param {string} view
 */
function expectedTitle(catalogue, view) {
  const key = `view.${view}`;
  return catalogue[key] ?? english[key] ?? view.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * Opens the demo (`query` appended) with the test wallet, animations reduced to 1 ms, in a window tall enough for
 * the whole Connect view (e-mail, socials and wallets are taller than the dialog's 88vh at 800 px, in English too).
 */
async function openDemo(query) {
  const testPage = await harness.newPage();
  await testPage.page.setViewportSize({ width: 1280, height: 1100 });
  await testPage.page.emulateMedia({ reducedMotion: 'reduce' });
  await testPage.page.goto(`${harness.latchd.info.demoUrl}${query}`);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Waits (up to 5 s: a locale's chunk may still be loading) for the header title, then asserts it. */
async function assertTitle(/** @type {import('playwright-core').Page} */ page, expected, label) {
  const title = page.getByTestId('latch-modal').locator('.latch-header-title');
  await page
    .waitForFunction(([el, text]) => el?.textContent?.trim() === text, [await title.elementHandle(), expected], { timeout: 5000 })
    .catch(() => {});
  assert.equal((await title.textContent())?.trim(), expected, `${label}: the header title`);
}

/**
 * Everything inside the dialog that breaks out of it: text cut by its own box (overflow hidden or an ellipsis),
 * a box scrolling sideways, an element outside the dialog's box (vertically only when no scrolling list holds it),
 * and a word of a button's label split over two lines.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
function overflows(page) {
  return page.getByTestId('latch-modal').evaluate((modal) => {
    const problems = [];
    const dialog = modal.getBoundingClientRect();
    const describe = (/** @type {Element} */ el) => {
      const id = el.getAttribute('data-testid');
      const classes = [...el.classList].map((c) => `.${c}`).join('');
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : ''}>${classes} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    };
    const scrolls = (/** @type {Element} */ el) => /auto|scroll/.test(getComputedStyle(el).overflowY);
    for (const el of modal.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if ((box.width === 0 && box.height === 0) || style.visibility === 'hidden') continue;
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (ownText && clips && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${describe(el)}: text cut off (scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth})`);
      }
      if (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${describe(el)}: scrolls sideways (scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth})`);
      }
      if (box.left < dialog.left - 1 || box.right > dialog.right + 1) {
        problems.push(`${describe(el)}: x ${Math.round(box.left)}–${Math.round(box.right)} outside the dialog's ${Math.round(dialog.left)}–${Math.round(dialog.right)}`);
      }
      // A button's label word (alphabetic scripts: Chinese and Japanese break between any characters) stays on one line.
      if (el.closest('button')) {
        for (const node of el.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE) continue;
          for (const word of (node.textContent ?? '').matchAll(/[\p{Script=Latin}\p{Script=Arabic}\p{Script=Cyrillic}\p{Script=Hebrew}\p{Script=Greek}]+/gu)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) problems.push(`${describe(el)}: "${word[0]}" is split over ${lines.size} lines`);
          }
        }
      }
      let scrolled = false;
      for (let p = el.parentElement; p && p !== modal; p = p.parentElement) scrolled ||= scrolls(p);
      if (!scrolled && (box.top < dialog.top - 1 || box.bottom > dialog.bottom + 1)) {
        problems.push(`${describe(el)}: y ${Math.round(box.top)}–${Math.round(box.bottom)} outside the dialog's ${Math.round(dialog.top)}–${Math.round(dialog.bottom)}`);
      }
    }
    return problems;
  });
}

/**
 * The overlay's language and direction, and (right to left) the mirrored header: Back in the right half, its arrow
 * turned round, Close in the left half.
 * @param {import('playwright-core').Page} page
 * @param {string} locale
 * @param {string} label
 */
async function assertDirection(page, locale, label) {
  const overlay = page.getByTestId('latch-modal-backdrop');
  assert.equal(await overlay.getAttribute('lang'), locale, `${label}: the overlay's lang`);
  const rtl = locale === 'ar';
  assert.equal(await overlay.getAttribute('dir'), rtl ? 'rtl' : 'ltr', `${label}: the overlay's dir`);
  const header = await page.getByTestId('latch-modal').locator('.latch-header').boundingBox();
  assert.ok(header, `${label}: no header box`);
  const middle = header.x + header.width / 2;
  const centre = async (/** @type {string} */ testId) => {
    const box = await page.getByTestId(testId).boundingBox();
    assert.ok(box, `${label}: no box for ${testId}`);
    return box.x + box.width / 2;
  };
  const back = page.getByTestId('latch-modal-back');
  if (await back.count()) {
    const x = await centre('latch-modal-back');
    assert.ok(rtl ? x > middle : x < middle, `${label}: Back at x ${x} should be in the ${rtl ? 'right' : 'left'} half (middle ${middle})`);
    const transform = await back.locator('svg').evaluate((svg) => getComputedStyle(svg).transform);
    if (rtl) assert.equal(transform, 'matrix(-1, 0, 0, 1, 0, 0)', `${label}: Back's arrow should point right`);
    else assert.equal(transform, 'none', `${label}: Back's arrow should point left`);
  }
  const x = await centre('latch-modal-close');
  assert.ok(rtl ? x < middle : x > middle, `${label}: Close at x ${x} should be in the ${rtl ? 'left' : 'right'} half (middle ${middle})`);
}

/**
 * Asserts an address element reads left to right: direction ltr, and its first character ("0") drawn left of its last.
 * @param {import('playwright-core').Locator} locator
 * @param {string} label
 */
async function assertReadsLeftToRight(locator, label) {
  const result = await locator.evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const text = /** @type {Text | null} */ (walker.nextNode());
    if (!text || (text.textContent ?? '').length < 2) return { direction: getComputedStyle(el).direction, text: el.textContent, first: 0, last: 0 };
    const charX = (/** @type {number} */ i) => {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect().left;
    };
    const length = (text.textContent ?? '').length;
    return { direction: getComputedStyle(el).direction, text: text.textContent, first: charX(0), last: charX(length - 1) };
  });
  assert.equal(result.direction, 'ltr', `${label}: "${result.text}" has direction ${result.direction}`);
  assert.ok(result.first < result.last, `${label}: "${result.text}" is drawn right to left (first character at ${result.first}, last at ${result.last})`);
}

/**
 * Checks the open view (title, language and direction, no overflow) and saves the dialog as <locale>-<name>.png.
 * @param {import('playwright-core').Page} page
 * @param {{locale: string, catalogue: Record<string, string>, view: string, name: string}} at
 */
async function checkView(page, { locale, catalogue, view, name }) {
  const label = `${locale} ${view}`;
  await page.getByTestId(`latch-view-${view}`).waitFor();
  await assertTitle(page, expectedTitle(catalogue, view), label);
  // The height transition and the view's lazy content (images, balances) have settled.
  await page.waitForTimeout(400);
  await assertDirection(page, locale, label);
  assert.deepEqual(await overflows(page), [], `${label}: elements overflow the dialog`);
  await mkdir(screenshotDir, { recursive: true });
  await page.getByTestId('latch-modal').screenshot({ path: join(screenshotDir, `${locale}-${name}.png`), animations: 'disabled' });
}

for (const locale of ['de', 'ja', 'ar']) {
  test(`?locale=${locale}: Connect, All Wallets, Account, Send and Networks in the locale, nothing overflowing`, async () => {
    /** @type {Record<string, string>} */
    const catalogue = (await importCoreSource(`i18n/locales/${locale}.ts`)).default;
    const at = (/** @type {string} */ view, /** @type {string} */ name) => ({ locale, catalogue, view, name });
    const { page, wallet } = await openDemo(`?locale=${locale}`);

    await page.getByTestId('latch-connect-button').click();
    await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).waitFor();
    await page.getByTestId('latch-all-wallets-count').waitFor();
    await checkView(page, at('Connect', 'connect'));

    await page.getByTestId('latch-all-wallets').click();
    await page.getByTestId('latch-view-AllWallets').getByRole('button', { name: /MetaMask/ }).first().waitFor();
    await checkView(page, at('AllWallets', 'all-wallets'));

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
    await page.getByTestId('latch-account-button').first().click();
    await page.getByTestId('latch-account-balance').waitFor();
    const ethQuantity = page.getByTestId('latch-token-ETH').getByTestId('latch-token-quantity');
    await ethQuantity.waitFor();
    await checkView(page, at('Account', 'account'));
    // One balance format in every locale: the Account view's balance reads as the token list's ETH row (asserted
    // last, so that Send and Networks are checked whatever it says).
    const balance = [(await page.getByTestId('latch-account-balance').textContent())?.trim(), (await ethQuantity.textContent())?.trim()];
    const truncated = `${wallet.address.slice(0, 4)}…${wallet.address.slice(-6)}`;
    const address = page.getByTestId('latch-account-address');
    assert.equal((await address.textContent())?.trim(), truncated);
    await assertReadsLeftToRight(address, `${locale} Account address`);
    await assertReadsLeftToRight(page.getByTestId('latch-account-button-address').first(), `${locale} account button address`);

    await page.getByTestId('latch-account-send').click();
    await page.locator('[data-testid="latch-send-token"] option', { hasText: /^USDC/ }).waitFor({ state: 'attached' });
    await checkView(page, at('WalletSend', 'send'));

    await page.getByTestId('latch-modal-back').click();
    await page.getByTestId('latch-account-network').click();
    await page.getByTestId('latch-view-Networks').getByRole('button').first().waitFor();
    await checkView(page, at('Networks', 'networks'));

    assert.equal(balance[0], balance[1], `${locale} Account: the balance`);
  });
}

test('English stays the default: an en-US browser without ?locale= sees "Connect Wallet"', async () => {
  const { page } = await harness.browser.newPage({ locale: 'en-US' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(harness.latchd.info.demoUrl);
  await page.getByTestId('latch-connect-button').filter({ hasText: 'Connect Wallet' }).waitFor();
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await assertTitle(page, 'Connect Wallet', 'en Connect');
  await assertDirection(page, 'en', 'en Connect');
});

test("a de-DE browser without ?locale= gets German (the browser's languages decide)", async () => {
  const { page } = await harness.browser.newPage({ locale: 'de-DE' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(harness.latchd.info.demoUrl);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  const catalogue = (await importCoreSource('i18n/locales/de.ts')).default;
  await assertTitle(page, expectedTitle(catalogue, 'Connect'), 'de-DE Connect');
  assert.equal(await page.getByTestId('latch-modal-backdrop').getAttribute('lang'), 'de');
});

test('the demo refuses an unknown ?locale= on the page and keeps English', async () => {
  const { page } = await harness.browser.newPage({ locale: 'en-US' });
  await page.goto(`${harness.latchd.info.demoUrl}?locale=xx`);
  await page.getByTestId('demo-locale-refused').filter({ hasText: '?locale=xx is not a locale Latch ships' }).waitFor();
  await page.getByTestId('latch-connect-button').click();
  await assertTitle(page, 'Connect Wallet', '?locale=xx Connect');
});
