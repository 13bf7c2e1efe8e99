// init() puts the project's remote features into the state the views read: the
// swap and on-ramp panels follow them (TokensTab's Buy and Swap).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mainnet } from 'viem/chains'
import { createLatch } from '../latch'
import { createMemoryStorage } from '../storage'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

describe('init', () => {
  it("maps the project's swap and on-ramp features into state.features", async () => {
    vi.stubGlobal('localStorage', createMemoryStorage())
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const features = [
      { id: 'swap', isEnabled: false, config: [] },
      { id: 'onramp', isEnabled: true, config: ['meld'] },
      { id: 'activity', isEnabled: true, config: null },
    ]
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input))
      if (url.pathname === '/appkit/v1/config') return json({ features })
      if (url.pathname === '/projects/v1/origins') return json({ allowedOrigins: [] })
      if (url.pathname === '/getAnalyticsConfig') return json({ isAnalyticsEnabled: false })
      return json({})
    })
    const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], walletConnect: false })
    expect(latch.getState().features.swaps).toBeUndefined()
    await latch.init()
    expect(latch.getState().features).toMatchObject({ swaps: false, onramp: ['meld'] })
    latch.destroy()
  })
})
