import { vi } from 'vitest'

// vi.waitFor and vi.waitUntil give up after 1 s unless told otherwise, Testing Library's waits after 5 s (react's
// src/test/setup.ts). On a machine busy with the Go and browser suites a state that arrives in 1.5 s is not a
// defect, so every wait of the suite has the same 5 s default; a call's own timeout still wins.
const timeout = 5_000
type Patched = { latchDefaultTimeout?: true }

if (!(vi.waitFor as Patched).latchDefaultTimeout) {
  const { waitFor, waitUntil } = vi
  vi.waitFor = Object.assign(
    ((callback, options) =>
      waitFor(callback, typeof options === 'number' ? options : { timeout, ...options })) as typeof vi.waitFor,
    { latchDefaultTimeout: true },
  )
  vi.waitUntil = ((callback, options) =>
    waitUntil(callback, typeof options === 'number' ? options : { timeout, ...options })) as typeof vi.waitUntil
}
