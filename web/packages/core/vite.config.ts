import { defineConfig } from 'vite'

// Library build: ESM, every dependency external so the app's bundler dedupes them.
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index' },
    rollupOptions: { external: (id) => !id.startsWith('.') && !id.startsWith('/') },
    sourcemap: true,
    minify: false,
  },
})
