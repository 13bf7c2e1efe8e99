// Shared render harness: renders UI inside LatchProvider with a fake latch.
import type { ReactElement } from 'react'
import { render, type RenderResult } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'
import { createFakeLatch, type FakeLatch } from './createFakeLatch'

// Testing Library's cleanup after each test is registered by src/test/setup.ts, for every file.

export type RenderWithLatchOptions = {
  latch?: FakeLatch
  /** Render with our WagmiProvider (a real wagmi config without connectors) instead of skipping it. */
  wagmi?: boolean
  /** Options for userEvent.setup, e.g. advanceTimers for fake timers. */
  userEvent?: Parameters<typeof userEvent.setup>[0]
}

export function renderWithLatch(
  ui: ReactElement,
  options: RenderWithLatchOptions = {},
): RenderResult & { latch: FakeLatch; user: ReturnType<typeof userEvent.setup> } {
  const latch = options.latch ?? createFakeLatch()
  const user = userEvent.setup(options.userEvent)
  const result = render(
    <LatchProvider latch={latch} wagmi={options.wagmi ?? false}>
      {ui}
    </LatchProvider>,
  )
  return { ...result, latch, user }
}
