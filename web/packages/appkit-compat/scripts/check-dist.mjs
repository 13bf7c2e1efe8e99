// Checks the built package: every entry in package.json's exports that is JavaScript must start with the
// 'use client' directive, or Next.js App Router (React Server Components) would run the hooks on the server
// and fail. Run by `npm run build` after vite; exits non-zero with the file's name when one lacks it.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'))

/** The JavaScript files package.json's exports point at (conditions flattened; types and CSS left out). */
function entryFiles(exportsField) {
  const files = new Set()
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value.endsWith('.js') || value.endsWith('.mjs')) files.add(value)
    } else if (value && typeof value === 'object') {
      for (const [condition, target] of Object.entries(value)) if (condition !== 'types') visit(target)
    }
  }
  visit(exportsField)
  return [...files]
}

/** True when the module's first statement (after comments and blank lines) is the 'use client' directive. */
export function startsWithUseClient(source) {
  const body = source.replace(/^(?:\s+|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '')
  return /^(['"])use client\1\s*;?/.test(body)
}

const files = entryFiles(manifest.exports)
if (files.length === 0) {
  console.error('check-dist: package.json exports no JavaScript entry')
  process.exit(1)
}
const missing = []
for (const file of files) {
  let source
  try {
    source = await readFile(join(packageDir, file), 'utf8')
  } catch {
    missing.push(`${file} (not built)`)
    continue
  }
  if (!startsWithUseClient(source)) missing.push(file)
}
if (missing.length > 0) {
  console.error(`check-dist: these entries do not start with 'use client': ${missing.join(', ')}`)
  process.exit(1)
}
console.log(`check-dist: 'use client' at the top of ${files.join(', ')}`)
