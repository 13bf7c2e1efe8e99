import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

// @scure/base builds each of its coders at the top level (`export const
// bech32 = genBech32('bech32')`) without a pure annotation, so the bundler
// keeps every coder although the frame uses three (base64, base64urlnopad,
// base58, and bip32's base58check). The calls only build coder objects:
// marking them pure lets the unused ones go. Should the library change its
// layout, nothing matches and the bundle is merely larger.
function scureBasePure(): Plugin {
  return {
    name: 'latch-scure-base-pure',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]@scure[\\/]base[\\/]lib[\\/]esm[\\/]index\.js$/.test(id)) return null
      return { code: code.replace(/^((?:export )?const \w+ = )(?=(?:chain|genBase58|genBech32)\()/gm, '$1/* @__PURE__ */ '), map: null }
    },
  }
}

// Vite wraps a dynamic import() in its preload helper, which fetches the
// chunk's CSS and (with modulePreload) its imports first. The frame has no
// CSS and preloads nothing (modulePreload: false), so every call gets an
// empty list and the helper (1.2 KiB of the script up to READY) only calls
// import(). This one does that and nothing else; should a build ever hand
// it something to preload, it fails loudly rather than skip it.
function plainDynamicImport(): Plugin {
  const id = '\0vite/preload-helper.js'
  return {
    name: 'latch-plain-dynamic-import',
    enforce: 'pre',
    resolveId: (source) => (source === id ? id : null),
    load: (source) =>
      source === id
        ? 'export const __vitePreload = (load, deps) => { if (deps && deps.length) throw new Error("latch frame: a preload was asked of a build that preloads nothing"); return load() }'
        : null,
  }
}

// The frame builds to static files that latchd embeds (internal/frameapp):
// index.html and hashed scripts, no inline code, so latchd's CSP can say
// script-src 'self'. The output goes straight into the Go package; the
// build script clears the previous build first (scripts/build.mjs). The
// @noble/@scure versions are those viem uses, so the bundle holds one copy of
// each curve and hash.
export default defineConfig({
  base: '/',
  plugins: [scureBasePure(), plainDynamicImport()],
  build: {
    outDir: fileURLToPath(new URL('../../../internal/frameapp/dist', import.meta.url)),
    emptyOutDir: false,
    modulePreload: false,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
})
