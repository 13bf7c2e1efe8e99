// Times, in Chromium, the click on <ConnectButton/> until the Connect view is
// painted (a frame after it is in the DOM), against a real latchd dev serving
// the demo. Each run opens the demo in a fresh page (no cache, no storage) and
// clicks the button as soon as it shows, then opens the view again and again:
// the first open pays for whatever the page has not loaded yet (the click comes
// before any pointer-over, focus or idle time, which is when the widget
// prefetches the view), the later ones do not. Prints a markdown table: each
// run's first open, median and p95 of the later opens, and the median of the
// runs' figures.
//
//   node bench/click-to-connect.mjs [--runs N] [--opens N] [--hover MS] [--trace FILE]
//
// --runs   fresh pages measured (default 3); the summary is the median of their figures
// --opens  opens per page, the first included (default 31)
// --hover  moves the pointer over the button MS ms before each click, as a visitor's mouse does (default 0: no
//          pointer-over, so the first open gets no prefetch but the page's own)
// --trace  writes a Chromium trace (chrome://tracing, Perfetto) of the first run's opens to FILE
import { launchBrowser } from '../e2e/lib/browser.mjs'
import { startLatchd } from '../e2e/lib/latchd.mjs'
import { installTestWallet } from '../e2e/wallet/wallet.mjs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

/** The options, checked: a count that is not a whole number above its minimum is refused with the flag named. */
export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { runs: { type: 'string', default: '3' }, opens: { type: 'string', default: '31' }, hover: { type: 'string', default: '0' }, trace: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  })
  const count = (name, min) => {
    const text = values[name]
    if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(text)}`)
    return Number(text)
  }
  return { runs: count('runs', 1), opens: count('opens', 2), hoverMs: count('hover', 0), trace: values.trace }
}

/** The p-quantile (nearest rank below) of sorted numbers. */
export function quantile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

/** A run's figures from its opens' times: the first open, and the median and p95 of the later ones. */
export function summarize(times) {
  const rest = times.slice(1).sort((a, b) => a - b)
  return { first: times[0], median: quantile(rest, 0.5), p95: quantile(rest, 0.95), later: rest.length }
}

/** The median of numbers (the middle one, or the mean of the middle two). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Opens the Connect view `opens` times in a fresh page of the demo; returns each open's click → painted time (ms). */
async function measureRun(browser, latchd, { opens, hoverMs }, trace) {
  const testPage = await browser.newPage()
  const { page } = testPage
  try {
    await installTestWallet(page, { info: latchd.info })
    await page.goto(latchd.info.demoUrl)
    await page.getByTestId('latch-connect-button').waitFor()
    if (trace) await browser.browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute', 'disabled-by-default-devtools.timeline'] })
    const times = []
    for (let i = 0; i < opens; i++) {
      if (hoverMs > 0) {
        await page.mouse.move(0, 0)
        await page.getByTestId('latch-connect-button').hover()
        await page.waitForTimeout(hoverMs)
      }
      const ms = await page.evaluate(
        (index) =>
          new Promise((resolve) => {
            const button = document.querySelector('[data-testid="latch-connect-button"]')
            const done = () =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() => {
                  // In a trace, each open is the span between these two marks.
                  performance.mark(`latch-bench:painted:${index}`)
                  resolve(performance.now() - t0)
                }),
              )
            const observer = new MutationObserver(() => {
              if (document.querySelector('[data-testid="latch-view-Connect"]')) {
                observer.disconnect()
                done()
              }
            })
            observer.observe(document.body, { childList: true, subtree: true })
            performance.mark(`latch-bench:click:${index}`)
            const t0 = performance.now()
            button.click()
          }),
        i,
      )
      times.push(ms)
      await page.keyboard.press('Escape')
      await page.getByTestId('latch-modal').waitFor({ state: 'detached' })
    }
    if (trace) await browser.browser.stopTracing()
    return times
  } finally {
    await testPage.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseOptions(process.argv.slice(2))
  const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../apps/demo/dist')
  const latchd = await startLatchd({ extraArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] })
  const browser = await launchBrowser()
  try {
    const runs = []
    for (let run = 0; run < options.runs; run++) runs.push(summarize(await measureRun(browser, latchd, options, run === 0 ? options.trace : undefined)))
    const ms = (n) => `${n.toFixed(1)} ms`
    const later = options.opens - 1
    let out = '\n## Click on ConnectButton → Connect view painted (Chromium, headless, the demo against latchd dev)\n\n'
    out += 'Measured from the click to the second animation frame after the view is in the DOM (so the frame that shows it has been painted). '
    out +=
      options.hoverMs > 0
        ? `Each run is a fresh page: the pointer moves over the button ${options.hoverMs} ms before each click (the first pointer-over right after the button shows); ${options.opens} opens.\n\n`
        : `Each run is a fresh page: its first open comes right after the button shows, before any pointer-over, focus or idle prefetch; then ${later} more opens.\n\n`
    out += `| run | first open | next ${later}: median | next ${later}: p95 |\n|---|---|---|---|\n`
    runs.forEach((r, i) => (out += `| ${i + 1} | ${ms(r.first)} | ${ms(r.median)} | ${ms(r.p95)} |\n`))
    if (runs.length > 1) {
      out += `| **median of ${runs.length}** | **${ms(median(runs.map((r) => r.first)))}** | **${ms(median(runs.map((r) => r.median)))}** | **${ms(median(runs.map((r) => r.p95)))}** |\n`
    }
    if (options.trace) out += `\nThe first run's trace: ${options.trace}.\n`
    console.log(out)
  } finally {
    await browser.close()
    await latchd.stop()
  }
}
