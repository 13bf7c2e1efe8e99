import { defineConfig } from 'vite'

// Library build: ESM, every dependency external so the app's bundler dedupes them.
// The modules the entry imports statically are one chunk ('shared'), also the one the lazy chunks import theirs
// from: left to itself the bundler splits them into a chunk per set of lazy chunks that share them, and an app's
// bundler keeps each as a file of the page's first load (each with its imports, exports and gzip overhead).
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index' },
    rollupOptions: {
      external: (id) => !id.startsWith('.') && !id.startsWith('/'),
      output: { codeSplitting: { groups: [{ name: 'shared', tags: ['$initial'] }] } },
    },
    sourcemap: true,
    minify: false,
  },
})
