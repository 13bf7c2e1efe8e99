// Times, in Chromium, the creation of the embedded-wallet frame until its
// READY message, against a real latchd dev on loopback: a page on a local
// origin (which latchd dev lets embed the frame) appends the hidden iframe as
// the widget does (spec §2 address: projectId, chainId, version,
// enableLogger) and waits for @latch-frame/READY from the frame origin. The
// frame fetches its page and script, asks latchd for the project's origins,
// then announces READY. Cold: the first creation in each of 5 fresh browser
// contexts (empty HTTP cache); warm: 30 more in one page, reusing the cached
// script (the page is never cached). Prints a markdown table. Goal: < 300 ms.
import { createServer } from 'node:http'
import { launchBrowser } from '../e2e/lib/browser.mjs'
import { startLatchd } from '../e2e/lib/latchd.mjs'

const runs = Number(process.env.LATCH_BENCH_RUNS ?? 30)
const coldRuns = 5 // each in a fresh browser context: empty HTTP cache
const readyTimeoutMs = 20_000 // the widget's load timeout (spec §9)

// The embedding page: one function that creates a frame and resolves with
// the milliseconds from appending it to its READY; the frame is removed then,
// unless keep is set.
const page = `<!doctype html><html><head><meta charset="utf-8"><title>frame ready</title></head><body><script>
window.createFrame = (frameUrl, projectId, chainId, timeoutMs, keep) => new Promise((resolve, reject) => {
  const origin = new URL(frameUrl).origin
  const el = document.createElement('iframe')
  el.id = el.name = 'latch-frame'
  el.setAttribute('aria-hidden', 'true')
  el.style.cssText = 'position:fixed;z-index:2147483646;display:none;border:0;width:0;height:0;top:0;left:0'
  const params = new URLSearchParams({ projectId, chainId, version: '1', enableLogger: 'false' })
  const timer = setTimeout(() => { done(); reject(new Error('no READY in ' + timeoutMs + ' ms')) }, timeoutMs)
  const onMessage = (ev) => {
    if (ev.origin !== origin || ev.source !== el.contentWindow || ev.data?.type !== '@latch-frame/READY') return
    const ms = performance.now() - t0
    done(keep)
    resolve(ms)
  }
  const done = (keep) => { clearTimeout(timer); window.removeEventListener('message', onMessage); if (!keep) el.remove() }
  window.addEventListener('message', onMessage)
  el.src = frameUrl.replace(/\\/+$/, '') + '/?' + params
  const t0 = performance.now()
  document.body.appendChild(el)
})
</script></body></html>`

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(page)
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const pageUrl = `http://127.0.0.1:${server.address().port}/`

const latchd = await startLatchd()
const browser = await launchBrowser()
try {
  const { info } = latchd
  const check = await fetch(`${info.frameOrigin}/?projectId=${info.projectId}`)
  if (check.status !== 200) throw new Error(`the frame page answers ${check.status} ${(await check.text()).trim()}: build the frame, then latchd (make build-dev)`)
  const chainId = String(info.networks?.[0]?.chainId ?? 31337)
  const create = (page, keep = false) => page.evaluate(([f, p, c, t, k]) => window.createFrame(f, p, c, t, k), [info.frameOrigin, info.projectId, chainId, readyTimeoutMs, keep])
  const cold = []
  for (let i = 0; i < coldRuns; i++) {
    const fresh = await browser.newPage()
    await fresh.page.goto(pageUrl)
    cold.push(await create(fresh.page))
    fresh.assertNoThirdPartyRequests()
    await fresh.context.close()
  }
  const testPage = await browser.newPage()
  // After READY the frame fetches its key code (signer-*.js) with import():
  // a CSP or serving fault there would go unseen by READY alone, so a last
  // frame is kept until it has fetched it.
  const signerFetched = new Promise((resolve) =>
    testPage.page.on('response', (r) => {
      if (/\/assets\/signer-[^/]+\.js$/.test(new URL(r.url()).pathname)) resolve(r.status())
    }),
  )
  await testPage.page.goto(pageUrl)
  await create(testPage.page) // fills the cache
  const times = []
  for (let i = 0; i < runs; i++) times.push(await create(testPage.page))
  await create(testPage.page, true)
  const signerStatus = await Promise.race([signerFetched, new Promise((resolve) => setTimeout(() => resolve('none in 5 s'), 5000))])
  if (signerStatus !== 200) throw new Error(`the frame's key code script: ${signerStatus}`)
  testPage.assertNoThirdPartyRequests()
  const sorted = (a) => [...a].sort((x, y) => x - y)
  const q = (a, p) => sorted(a)[Math.min(a.length - 1, Math.floor(p * a.length))].toFixed(1)
  console.log('\n## Embedded-wallet frame: creation → READY (Chromium, headless, against latchd dev on loopback)\n')
  console.log('From appending the hidden iframe to its READY message: the frame page, its script, latchd\'s answer about the project\'s origins, then READY.\n')
  console.log('| creations | median | p95 | max | goal |\n|---|---|---|---|---|')
  console.log(`| cold: ${cold.length}, each the first in a fresh context | ${q(cold, 0.5)} ms | ${q(cold, 0.95)} ms | ${q(cold, 1)} ms | < 300 ms |`)
  console.log(`| warm: ${times.length} in one page (script cached) | ${q(times, 0.5)} ms | ${q(times, 0.95)} ms | ${q(times, 1)} ms | < 300 ms |`)
} finally {
  await browser.close()
  await latchd.stop()
  server.close()
}
