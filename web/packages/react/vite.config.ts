import { defineConfig } from 'vite'

// Peer and sibling packages stay external so the app's bundler dedupes them.
const external = [
  'react',
  'react-dom',
  'wagmi',
  'viem',
  '@tanstack/react-query',
  '@latchkit/core',
  // Dependencies the app's bundler resolves; the WalletConnect SDK stays behind a dynamic import there too.
  '@walletconnect/universal-provider',
  'uqr',
]

// Library build: ESM, one entry plus lazy chunks (AllWallets, WalletConnect views and connector SDK loader),
// styles extracted to dist/styles.css. The entry chunk starts with 'use client': React Server Components
// frameworks (Next.js App Router) then treat the package as client code. Written as a banner because the bundler
// warns that it may not keep a directive from the sources; scripts/check-dist.mjs, run by `npm run build`, fails
// the build when an entry lacks it. Lazy chunks are reached only from the entry's client code and need none.
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index', cssFileName: 'styles' },
    rollupOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { banner: (chunk) => (chunk.isEntry ? "'use client';" : '') },
    },
    sourcemap: true,
    minify: false,
  },
})
