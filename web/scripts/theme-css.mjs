#!/usr/bin/env node
// Writes the theme defaults of @latchkit/core (src/theme-tokens.ts) into @latchkit/react's src/styles/theme.css, between
// the generated block's comments, so the stylesheet declares the same defaults the components set inline.
// @latchkit/react's build runs it; core's theme-css.test.ts fails when the committed stylesheet is stale.
//
//   node scripts/theme-css.mjs          rewrite the block when it differs
//   node scripts/theme-css.mjs --check  exit 1 when it differs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const sheetsDir = join(webRoot, 'packages/react/src/styles')
const stylesheetPath = join(sheetsDir, 'theme.css')

// Vite's module runner loads the TypeScript source as the tests do; no build of core is needed first.
const { module } = await runnerImport(join(webRoot, 'packages/core/src/theme-css.ts'), {
  configFile: false,
  root: webRoot,
  logLevel: 'error',
})
const committed = readFileSync(stylesheetPath, 'utf8')
// Only the variables some sheet reads are declared, so every sheet's rules count.
const rules = readdirSync(sheetsDir)
  .filter((name) => name.endsWith('.css'))
  .map((name) => readFileSync(join(sheetsDir, name), 'utf8'))
  .join('\n')
const block = committed.slice(committed.indexOf(module.THEME_DEFAULTS_BEGIN), committed.indexOf(module.THEME_DEFAULTS_END))
const current = module.withThemeDefaults(committed, rules.replace(block, ''))
const name = relative(webRoot, stylesheetPath)
if (current === committed) {
  console.log(`${name}: theme defaults up to date`)
} else if (process.argv.includes('--check')) {
  console.log(`${name}: theme defaults differ from packages/core/src/theme-tokens.ts; run node scripts/theme-css.mjs`)
  process.exit(1)
} else {
  writeFileSync(stylesheetPath, current)
  console.log(`${name}: theme defaults rewritten from packages/core/src/theme-tokens.ts`)
}
