import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

// micro-key-producer is installed at the workspace root with its own copy of
// @noble/* 2.4.0 (the root's @noble/curves is viem's 1.x); resolve its
// imports from this package so the bundle holds one copy of each.
function oneNobleCopy(): Plugin {
  const here = fileURLToPath(new URL('./src/main.ts', import.meta.url))
  return {
    name: 'latch-one-noble-copy',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('/micro-key-producer/') && /^@(noble|scure)\//.test(source)) {
        return this.resolve(source, here, { skipSelf: true })
      }
      return null
    },
  }
}

// The frame builds to static files that latchd embeds (internal/frameapp):
// index.html and one hashed script, no inline code, so latchd's CSP can say
// script-src 'self'. The output goes straight into the Go package; the
// build script clears the previous build first (scripts/build.mjs).
export default defineConfig({
  base: '/',
  plugins: [oneNobleCopy()],
  build: {
    outDir: fileURLToPath(new URL('../../../internal/frameapp/dist', import.meta.url)),
    emptyOutDir: false,
    modulePreload: false,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
})
