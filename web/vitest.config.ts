import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'core', root: './packages/core', environment: 'node', include: ['src/**/*.test.ts'] },
      },
      {
        test: { name: 'react', root: './packages/react', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
      },
    ],
  },
})
