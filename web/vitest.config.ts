import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Test files share their worker's modules (isolate: false): importing React, wagmi, viem and jsdom once per worker
// rather than once per file takes the suite's CPU time to about a fifth. What a file changes for itself it undoes:
// mocks, stubbed globals and env are restored after each test (below), and Testing Library's cleanup runs after
// each test (react's src/test/setup.ts). make test-flaky runs the suite in shuffled orders to catch a file that
// leans on another's leftovers. A test may take 15 s, and vi.waitFor waits 5 s (vitest.setup.ts): the suites share
// the machine with the Go and browser tests.
const setup = fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))
const shared = {
  isolate: false,
  restoreMocks: true,
  unstubGlobals: true,
  unstubEnvs: true,
  testTimeout: 15_000,
  setupFiles: [setup],
} as const

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...shared, name: 'core', root: './packages/core', environment: 'node', include: ['src/**/*.test.ts'] },
      },
      {
        // @latchkit/core resolves to its source so tests never need core's dist build.
        resolve: { alias: { '@latchkit/core': fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)) } },
        test: {
          ...shared,
          name: 'react',
          root: './packages/react',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          // The modal's dialog chunk, loaded before each file (see the file).
          setupFiles: [setup, './src/test/setup.ts'],
        },
      },
      {
        // AppKit's API over Latch: core and react resolve to their sources, as for react's tests.
        resolve: {
          alias: [
            { find: /^@latchkit\/core$/, replacement: fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)) },
            { find: /^@latchkit\/react$/, replacement: fileURLToPath(new URL('./packages/react/src/index.ts', import.meta.url)) },
            { find: /^@latchkit\/react\/styles\.css$/, replacement: fileURLToPath(new URL('./packages/react/src/styles.css', import.meta.url)) },
          ],
        },
        test: {
          ...shared,
          name: 'appkit-compat',
          root: './packages/appkit-compat',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: [setup, '../react/src/test/setup.ts'],
        },
      },
      {
        // The embedded-wallet frame: Node's WebCrypto, fake-indexeddb per test file.
        test: { ...shared, name: 'frame', root: './packages/frame', environment: 'node', include: ['src/**/*.test.ts'] },
      },
    ],
  },
})
