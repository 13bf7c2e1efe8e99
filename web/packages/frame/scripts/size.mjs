// Prints the size of the built frame's script (min+gzip, level 9): run
// `npm run build` first. The goal is at most 60 KiB.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const assets = fileURLToPath(new URL('../../../../internal/frameapp/dist/assets/', import.meta.url))
const files = readdirSync(assets).filter((f) => f.endsWith('.js'))
if (files.length === 0) throw new Error('no frame build: run npm run build -w @latchkit/frame')
let raw = 0
let gz = 0
for (const f of files) {
  const b = readFileSync(assets + f)
  raw += b.length
  gz += gzipSync(b, { level: 9 }).length
}
console.log(`frame JS: ${files.length} file(s), ${(raw / 1024).toFixed(1)} KiB min, ${(gz / 1024).toFixed(1)} KiB min+gzip`)
