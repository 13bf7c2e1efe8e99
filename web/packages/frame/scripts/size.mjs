// Prints the size of the built frame's scripts (min+gzip, level 9): run
// `npm run build` first. The goal is at most 60 KiB on every path. A path is
// what the browser fetches and runs up to one answer:
//   to READY               the page's script and what it imports statically;
//   personal_sign          the same plus the key code (signer.ts, loaded with
//                          import() right after READY), the EVM key and
//                          signing script (evm.ts) and the approval view
//                          (approvalView.ts), which every signature needs;
//   … in Chinese           the heaviest path, typed data, plus the approval
//                          view's strings in the language whose script is
//                          largest (zh-TW);
//                          a transaction's and a Solana transaction's
//                          decoding are scripts of their own (approvalDecodeTx.ts,
//                          approvalDecodeSolana.ts), on those paths only;
//   eth_sendTransaction    plus its own script (evmTransaction.ts);
//   eth_signTypedData_v4   plus the EIP-712 script (evmTypedData.ts);
//   a Solana signature     the key code and the Solana script (solana.ts),
//                          no EVM code;
//   a user operation       the smart account's scripts (smartAccountRpc.ts,
//                          smartAccountOps.ts) with the EVM key;
//   a new wallet           both keys (their addresses are stored);
//   password recovery      a new device opening the recovery share (scrypt);
//   all scripts            every file.
// Each file is compressed on its own, as it is sent; a path counts each file
// once, with everything it imports statically.
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
// The lazily loaded script whose name starts with prefix (vite names a
// chunk after its module), with everything it needs.
const lazy = (prefix, base) => {
  const f = files.filter((f) => f.startsWith(prefix)).find((f) => [...base].some((b) => dynamicImports(b).includes(f)))
  if (!f) throw new Error(`no script ${prefix}*.js loaded with import() in the build`)
  return closure([...base, f])
}
// A path: the scripts loaded with import() one after another, each found
// among those the path so far loads that way, with their static imports.
const path = (...prefixes) => prefixes.reduce((base, prefix) => lazy(prefix, base), ready)
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
  ['personal_sign', total(path('signer-', 'evm-', 'approvalView-'))],
  ['eth_sendTransaction', total(path('signer-', 'evm-', 'approvalView-', 'approvalDecodeTx-', 'evmTransaction-'))],
  ['eth_signTypedData_v4', total(path('signer-', 'evm-', 'approvalView-', 'evmTypedData-'))],
  ['eth_signTypedData_v4 in Chinese (zh-TW)', total(path('signer-', 'evm-', 'approvalView-', 'zh-TW-', 'evmTypedData-'))],
  ['a Solana signature', total(path('signer-', 'approvalView-', 'approvalDecodeSolana-', 'solana-'))],
  ['a user operation', total(path('signer-', 'evm-', 'approvalView-', 'approvalDecodeTx-', 'smartAccountRpc-', 'smartAccountOps-'))],
  ['a new wallet', total(path('signer-', 'evm-', 'solana-'))],
  ['password recovery', total(path('signer-', 'evm-', 'solana-', 'recovery-'))],
  ['all scripts', total(all)],
]
if (process.argv.includes('--markdown')) {
  console.log('\n## The embedded-wallet frame\'s JavaScript (web/packages/frame, Vite production build)\n')
  console.log('What the browser fetches up to each answer, each file compressed on its own (gzip -9), as it is sent. The key code (seed and shares) and the approval view are loaded with import() right after READY; the EVM and Solana key and signing scripts, eth_sendTransaction, EIP-712, the smart account\'s user operations, the approval view\'s translations and password recovery (scrypt) each when first used.\n')
  console.log('| path | files | min | min + gzip | goal |\n|---|---|---|---|---|')
  for (const [name, t] of rows) console.log(`| ${name} | ${t.files} | ${t.min} KiB | ${t.gz} KiB | ${name === 'all scripts' ? '' : '≤ 60 KiB'} |`)
} else {
  for (const [name, t] of rows) console.log(`frame JS ${name}: ${t.files} file(s), ${t.min} KiB min, ${t.gz} KiB min+gzip`)
}
