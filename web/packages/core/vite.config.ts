import { defineConfig } from 'vite'

// Library build: ESM, every dependency external so the app's bundler dedupes them, one file per source module
// (preserveModules). The app's bundler then places each module where it is used: a function exported from the
// entry but called only by a lazy view (the multi-wallet list, the runtime updates) lands in that view's chunk,
// not in the page's first load. A bundled entry would be one indivisible module to the app's bundler, all of whose
// exports load with the page (measured: 1.2 KiB min + gzip of first load, `node bench/measure.mjs` in web/).
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index' },
    rollupOptions: {
      external: (id) => !id.startsWith('.') && !id.startsWith('/'),
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
    sourcemap: true,
    minify: false,
  },
})
