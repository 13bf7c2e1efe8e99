import { defineConfig } from 'vitest/config'

// The frame's unit tests run in Node: WebCrypto is Node's own, IndexedDB is
// fake-indexeddb (installed per test file).
export default defineConfig({
  test: { name: 'frame', environment: 'node', include: ['src/**/*.test.ts'] },
})
