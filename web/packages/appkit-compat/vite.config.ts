import { defineConfig } from 'vite'

// Library build as @latchkit/react's: ESM, every dependency external (the app's bundler dedupes them, so the
// compat layer adds only its own code), the entry starting with 'use client' for React Server Components
// frameworks (scripts/check-dist.mjs fails the build when it does not).
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index' },
    rollupOptions: {
      external: (id) => !id.startsWith('.') && !id.startsWith('/'),
      output: { banner: (chunk) => (chunk.isEntry ? "'use client';" : '') },
    },
    sourcemap: true,
    minify: false,
  },
})
