// Prints the size of the built frame's scripts (min+gzip, level 9): run
// `npm run build` first. The goal is at most 60 KiB. Three figures:
//   to READY      the page's script and what it imports statically: what the
//                 browser fetches and runs before the frame answers;
//   to a signature  the same plus the key code (signer.ts, loaded with
//                 import() right after READY) and what it imports;
//   all scripts   every file, password recovery (scrypt) included.
// Each file is compressed on its own, as it is sent.
// --markdown prints a table for bench/results.md instead.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const dist = fileURLToPath(new URL('../../../../internal/frameapp/dist/', import.meta.url))
let files
try {
  files = readdirSync(dist + 'assets').filter((f) => f.endsWith('.js'))
} catch {
  files = []
}
if (files.length === 0) throw new Error('no frame build: run npm run build -w @latchkit/frame')

const code = new Map(files.map((f) => [f, readFileSync(dist + 'assets/' + f)]))
const sizes = new Map([...code].map(([f, b]) => [f, { min: b.length, gz: gzipSync(b, { level: 9 }).length }]))

// Static imports of a built file: `import … from "./x.js"` or `import "./x.js"`,
// never `import("./x.js")`.
const staticImports = (f) => [...code.get(f).toString().matchAll(/\bimport\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g)].map((m) => m[1])
const dynamicImports = (f) => [...code.get(f).toString().matchAll(/\bimport\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1])
function closure(roots) {
  const seen = new Set()
  const visit = (f) => {
    if (seen.has(f)) return
    if (!code.has(f)) throw new Error(`the build imports ${f}, which is not in ${dist}assets`)
    seen.add(f)
    staticImports(f).forEach(visit)
  }
  roots.forEach(visit)
  return seen
}

const entry = /<script[^>]*\bsrc="\/assets\/([^"]+\.js)"/.exec(readFileSync(dist + 'index.html', 'utf8'))?.[1]
if (!entry) throw new Error('index.html names no /assets/ script')
const ready = closure([entry])
const signer = [...ready].flatMap(dynamicImports).find((f) => f.startsWith('signer-'))
const signing = signer ? closure([entry, signer]) : ready
const all = new Set(files)

const total = (set) => {
  let min = 0
  let gz = 0
  for (const f of set) {
    min += sizes.get(f).min
    gz += sizes.get(f).gz
  }
  return { files: set.size, min: (min / 1024).toFixed(1), gz: (gz / 1024).toFixed(1) }
}
const rows = [
  ['to READY', total(ready)],
  ['to a signature', total(signing)],
  ['all scripts', total(all)],
]
if (process.argv.includes('--markdown')) {
  console.log('\n## The embedded-wallet frame\'s JavaScript (web/packages/frame, Vite production build)\n')
  console.log('Each file compressed on its own (gzip -9), as it is sent. The key code is loaded with import() right after READY; password recovery (scrypt) only when used.\n')
  console.log('| scripts | files | min | min + gzip | goal |\n|---|---|---|---|---|')
  for (const [name, t] of rows) console.log(`| ${name} | ${t.files} | ${t.min} KiB | ${t.gz} KiB | ≤ 60 KiB |`)
} else {
  for (const [name, t] of rows) console.log(`frame JS ${name}: ${t.files} file(s), ${t.min} KiB min, ${t.gz} KiB min+gzip`)
}
