import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The frame builds to static files that latchd embeds (internal/frameapp):
// index.html and one hashed script, no inline code, so latchd's CSP can say
// script-src 'self'. The output goes straight into the Go package; the
// build script clears the previous build first (scripts/build.mjs). The
// @noble/@scure versions are those viem uses, so the bundle holds one copy of
// each curve and hash.
export default defineConfig({
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../../../internal/frameapp/dist', import.meta.url)),
    emptyOutDir: false,
    modulePreload: false,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
})
