// Times, in Chromium, the click on <ConnectButton/> until the Connect view is
// painted (a frame after it is in the DOM), against a real latchd dev serving
// the demo. The first open includes prefetching the wallet list; later opens
// do not. Prints a markdown table.
import { launchBrowser } from '../e2e/lib/browser.mjs'
import { startLatchd } from '../e2e/lib/latchd.mjs'
import { installTestWallet } from '../e2e/wallet/wallet.mjs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../apps/demo/dist')
const runs = 30
const latchd = await startLatchd({ extraArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] })
const browser = await launchBrowser()
try {
  const { page } = await browser.newPage()
  await installTestWallet(page, { info: latchd.info })
  await page.goto(latchd.info.demoUrl)
  await page.getByTestId('latch-connect-button').waitFor()
  const times = []
  for (let i = 0; i < runs; i++) {
    const ms = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const button = document.querySelector('[data-testid="latch-connect-button"]')
          const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)))
          const observer = new MutationObserver(() => {
            if (document.querySelector('[data-testid="latch-view-Connect"]')) {
              observer.disconnect()
              done()
            }
          })
          observer.observe(document.body, { childList: true, subtree: true })
          const t0 = performance.now()
          button.click()
        }),
    )
    times.push(ms)
    await page.keyboard.press('Escape')
    await page.getByTestId('latch-modal').waitFor({ state: 'detached' })
  }
  const first = times[0]
  const rest = times.slice(1).sort((a, b) => a - b)
  const q = (p) => rest[Math.min(rest.length - 1, Math.floor(p * rest.length))]
  console.log('\n## Click on ConnectButton → Connect view painted (Chromium, headless, the demo against latchd dev)\n')
  console.log('Measured from the click to the second animation frame after the view is in the DOM (so the frame that shows it has been painted).\n')
  console.log('| open | click → Connect painted |\n|---|---|')
  console.log(`| first | ${first.toFixed(1)} ms |`)
  console.log(`| next ${rest.length}: median | ${q(0.5).toFixed(1)} ms |`)
  console.log(`| next ${rest.length}: p95 | ${q(0.95).toFixed(1)} ms |`)
} finally {
  await browser.close()
  await latchd.stop()
}
