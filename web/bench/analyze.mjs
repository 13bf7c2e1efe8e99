// Lists what a page's first load is made of: builds the bench pages like
// measure.mjs (with source maps), maps every byte of the first-load chunks back
// to its source file through the maps, and prints the biggest source files by
// min bytes and by an estimate of their min + gzip share (each chunk's gzip
// size spread over its files in proportion to their min bytes). The CSS is
// listed as one file. Usage: node bench/analyze.mjs [latch|baseline|diff] [rows]
// ('diff' lists latch's files and the bytes each adds over the baseline page).
import { build } from 'vite'
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { SourceMapConsumer } from 'source-map-js'

const here = dirname(fileURLToPath(import.meta.url))
const web = join(here, '..')
const outRoot = join(here, 'dist', 'analyze')

async function attribute(name) {
  const root = join(here, name)
  const outDir = join(outRoot, name)
  await build({
    root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      rollupOptions: { onwarn: (w, warn) => (w.code === 'MODULE_LEVEL_DIRECTIVE' ? undefined : warn(w)) },
    },
  })
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const files = [
    ...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1].replace(/^\//, ''))
  const bySource = new Map()
  const add = (src, raw, gz) => {
    const e = bySource.get(src) ?? { raw: 0, gz: 0 }
    e.raw += raw
    e.gz += gz
    bySource.set(src, e)
  }
  let total = 0
  for (const f of files) {
    const code = readFileSync(join(outDir, f), 'utf8')
    const gz = gzipSync(Buffer.from(code), { level: 9 }).length
    total += gz
    if (f.endsWith('.css')) {
      add(`(css) ${f}`, code.length, gz)
      continue
    }
    let map
    try {
      map = new SourceMapConsumer(JSON.parse(readFileSync(join(outDir, `${f}.map`), 'utf8')))
    } catch {
      add(`(no map) ${f}`, code.length, gz)
      continue
    }
    const counts = new Map()
    const lines = code.split('\n')
    const mappings = []
    map.eachMapping((m) => mappings.push(m))
    // Each mapping covers its generated line from its column to the next mapping's column.
    for (let i = 0; i < mappings.length; i++) {
      const m = mappings[i]
      const next = mappings[i + 1]
      const end = next && next.generatedLine === m.generatedLine ? next.generatedColumn : lines[m.generatedLine - 1].length
      const src = m.source ? clean(origin(m)) : '(unmapped)'
      counts.set(src, (counts.get(src) ?? 0) + Math.max(0, end - m.generatedColumn))
    }
    const mapped = [...counts.values()].reduce((a, b) => a + b, 0)
    counts.set('(unmapped)', (counts.get('(unmapped)') ?? 0) + Math.max(0, code.length - mapped))
    for (const [src, n] of counts) add(src, n, (gz * n) / code.length)
  }
  return { bySource, total, files }
}

// A library's dist file (packages/*/dist) is mapped on to its own sources through the dist's map.
const distMaps = new Map()
function origin(m) {
  if (!/packages\/[^/]+\/dist\/[^/]+\.js$/.test(m.source)) return m.source
  const file = join(outRoot, 'x', 'assets', m.source)
  if (!distMaps.has(file)) {
    try {
      distMaps.set(file, new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8'))))
    } catch {
      distMaps.set(file, null)
    }
  }
  const map = distMaps.get(file)
  const o = map?.originalPositionFor({ line: m.originalLine, column: m.originalColumn })
  return o?.source ? join(dirname(file), o.source) : m.source
}

function clean(src) {
  const i = src.lastIndexOf('node_modules/')
  if (i >= 0) return src.slice(i + 'node_modules/'.length)
  const p = relative(web, src.startsWith('/') ? src : join(outRoot, 'x', 'assets', src))
  return p.replace(/^(\.\.\/)+/, '')
}

const [mode = 'latch', rowsArg = '60'] = process.argv.slice(2)
const rows = Number(rowsArg)
const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(9)
if (mode === 'diff') {
  const base = await attribute('baseline')
  const ours = await attribute('latch')
  const keys = new Set([...base.bySource.keys(), ...ours.bySource.keys()])
  const diff = [...keys].map((k) => {
    const a = base.bySource.get(k) ?? { raw: 0, gz: 0 }
    const b = ours.bySource.get(k) ?? { raw: 0, gz: 0 }
    return [k, b.raw - a.raw, b.gz - a.gz]
  })
  diff.sort((x, y) => y[2] - x[2])
  console.log(`first load: baseline ${base.total} B, latch ${ours.total} B (${ours.files.length} files), difference ${ours.total - base.total} B\n`)
  console.log('   Δ min  Δ gz(est)  source')
  for (const [k, r, g] of diff.slice(0, rows)) console.log(`${fmt(r)} ${fmt(g)}  ${k}`)
} else {
  const r = await attribute(mode)
  const list = [...r.bySource].sort((x, y) => y[1].gz - x[1].gz)
  console.log(`first load of ${mode}: ${r.total} B min + gzip over ${r.files.length} files\n`)
  console.log('     min   gz(est)  source')
  for (const [k, e] of list.slice(0, rows)) console.log(`${fmt(e.raw)} ${fmt(e.gz)}  ${k}`)
}
