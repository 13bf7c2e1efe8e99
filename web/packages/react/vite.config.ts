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
// styles extracted to dist/styles.css. The bundler keeps the entry module's 'use client' directive (src/index.ts)
// at the top of dist/index.js, which React Server Components frameworks need; scripts/check-dist.mjs, run by
// `npm run build`, fails the build when it is missing.
export default defineConfig({
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: 'index', cssFileName: 'styles' },
    rollupOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
    },
    sourcemap: true,
    minify: false,
  },
})
