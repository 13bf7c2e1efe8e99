// Builds the two pages with Vite (production, minified) and reports the
// first-load bytes of each: the entry script, the modules it preloads and its
// CSS, min + gzip (level 9) — the chunks a page loads before any interaction.
// Lazy chunks (e.g. the AllWallets view) are not counted.
import { build } from 'vite'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const here = dirname(fileURLToPath(import.meta.url))

async function firstLoad(name) {
  const root = join(here, name)
  const outDir = join(here, 'dist', name)
  await build({
    root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      rollupOptions: { onwarn: (w, warn) => (w.code === 'MODULE_LEVEL_DIRECTIVE' ? undefined : warn(w)) },
    },
  })
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const files = [
    ...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1])
  let raw = 0
  let gz = 0
  for (const f of files) {
    const bytes = readFileSync(join(outDir, f.replace(/^\//, '')))
    raw += bytes.length
    gz += gzipSync(bytes, { level: 9 }).length
  }
  return { files: files.length, raw, gz }
}

const base = await firstLoad('baseline')
const ours = await firstLoad('latch')
const kib = (n) => (n / 1024).toFixed(1)
const rows = [
  ['React + wagmi + viem + TanStack Query', base],
  ['the same + LatchProvider + ConnectButton', ours],
]
let out = '\n## First-load JavaScript and CSS of a page with a connect button (Vite production build)\n\n| page | files | min | min + gzip |\n|---|---|---|---|\n'
for (const [label, r] of rows) out += `| ${label} | ${r.files} | ${kib(r.raw)} KiB | ${kib(r.gz)} KiB |\n`
out += `\nLatch adds **${kib(ours.gz - base.gz)} KiB** (${(ours.gz - base.gz).toLocaleString('en-US')} B) min + gzip to the first load (target: at most 60 KiB, 61,440 B).\n`
// Each locale's catalogue is a chunk of its own, loaded (with the switch chunk: matching and Intl formats) only on a page showing that
// locale: list them so a catalogue that grows, or one that lands on the first load, shows here.
const locales = ['ar', 'de', 'es', 'fa', 'fr', 'he', 'hi', 'id', 'it', 'ja', 'ko', 'ms', 'nl', 'pl', 'pt-BR', 'ru', 'th', 'tr', 'uk', 'vi', 'zh-CN', 'zh-TW']
const assets = join(here, 'dist', 'latch', 'assets')
// Chunk names are the module's name, then core's and the app's content hashes (8 characters each).
const chunkOf = (name) => readdirSync(assets).find((f) => new RegExp(`^${name}(-[\\w-]{8})+\\.js$`).test(f))
out += '\n## Language chunks (loaded only by a page showing that locale)\n\n| chunk | min | min + gzip |\n|---|---|---|\n'
for (const name of [...locales, 'switch']) {
  const file = chunkOf(name)
  if (!file) throw new Error(`no chunk for ${name} in ${assets}: the locale is missing or was merged into another chunk`)
  const bytes = readFileSync(join(assets, file))
  out += `| ${name === 'switch' ? 'language switch: matching, loading, Intl formats (any non-English page)' : name} | ${kib(bytes.length)} KiB | ${kib(gzipSync(bytes, { level: 9 }).length)} KiB |\n`
}
console.log(out)
