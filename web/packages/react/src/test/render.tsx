// Shared render harness: renders UI inside LatchProvider with a fake latch.
import type { ReactElement } from 'react'
import { cleanup, render, type RenderResult } from '@testing-library/react'
import { afterEach } from 'vitest'
import userEvent from '@testing-library/user-event'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'
import { createFakeLatch, type FakeLatch } from './createFakeLatch'

// Vitest runs without globals, so Testing Library's automatic cleanup is registered here.
afterEach(cleanup)

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
