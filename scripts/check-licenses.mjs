// Fails if any package-lock.json in the repository holds a package whose
// licence is not OSI-approved, or a version of @walletconnect/* (>= 2.21.9) or
// @reown/appkit* (>= 1.8.3) whose licence forbids use with our own servers.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname

// SPDX ids of OSI-approved licences we accept.
const osi = new Set([
  'MIT', 'MIT-0', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', 'BlueOak-1.0.0',
  'MPL-2.0', 'Unlicense', 'Zlib', 'Python-2.0', 'Artistic-2.0', 'LGPL-2.1', 'LGPL-3.0',
  'LGPL-2.1-or-later', 'LGPL-3.0-or-later', 'CC0-1.0', 'UPL-1.0', 'BSL-1.0', 'WTFPL', 'PSF-2.0',
])

// Packages whose package.json uses the pre-SPDX "licenses" array, which npm
// does not copy into the lockfile; each entry was checked by hand.
const declared = {
  'memorystream@0.3.1': 'MIT',
}

// Packages under a licence that is not a software licence, accepted for a
// stated reason: none of them is code that runs in a page or in latchd.
const dataOnly = {
  // Browser-support tables read at build time by browserslist (through
  // Next.js in web/apps/next); not code, and not part of any bundle.
  'caniuse-lite': 'CC-BY-4.0',
}

function lockfiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git') continue
    const p = join(dir, name)
    const st = statSync(p)
    if (st.isDirectory()) lockfiles(p, out)
    else if (name === 'package-lock.json') out.push(p)
  }
  return out
}

function cmp(a, b) {
  const pa = a.split(/[.-]/).map(Number), pb = b.split(/[.-]/).map(Number)
  for (let i = 0; i < 3; i++) if ((pa[i] || 0) !== (pb[i] || 0)) return (pa[i] || 0) - (pb[i] || 0)
  return 0
}

// An SPDX expression is acceptable if every alternative of an OR has an
// OSI-approved choice, e.g. "(MIT OR Apache-2.0)" or "MIT AND ISC".
function licenceOK(expr) {
  if (!expr || typeof expr !== 'string') return false
  const clean = expr.replace(/[()]/g, ' ').trim()
  return clean.split(/\s+OR\s+/).some((alt) => alt.split(/\s+AND\s+/).every((id) => osi.has(id.trim())))
}

const problems = []
let count = 0
for (const file of lockfiles(root)) {
  const lock = JSON.parse(readFileSync(file, 'utf8'))
  for (const [path, pkg] of Object.entries(lock.packages || {})) {
    // Our own workspace packages (no node_modules/ in the path) are checked by review, not here.
    if (path === '' || pkg.link || !path.includes('node_modules/')) continue
    count++
    const name = pkg.name || path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    const where = `${relative(root, file)}: ${name}@${pkg.version}`
    if (name.startsWith('@walletconnect/') && cmp(pkg.version, '2.21.9') >= 0)
      problems.push(`${where}: @walletconnect/* must stay at or below 2.21.8 (later versions forbid use with our relay)`)
    if (name.startsWith('@reown/appkit') && cmp(pkg.version, '1.8.3') >= 0)
      problems.push(`${where}: @reown/appkit* must stay below 1.8.3 (later versions are not open source)`)
    const licence = pkg.license ?? declared[`${name}@${pkg.version}`]
    if (dataOnly[name] && dataOnly[name] === licence) continue
    if (!licenceOK(licence)) problems.push(`${where}: licence ${JSON.stringify(licence)} is not on the OSI allowlist`)
  }
}
if (problems.length) {
  console.error(problems.join('\n'))
  console.error(`${problems.length} problem(s)`)
  process.exit(1)
}
console.log(`${count} packages checked: licences OSI-approved, no forbidden versions`)
