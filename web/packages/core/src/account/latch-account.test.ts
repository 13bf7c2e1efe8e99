// createLatch's account wiring: the native balance read failing shows "0.00"
// ETH and the toast (spec §8), the visitor's own transaction reads it again,
// and the account-data service loads latchd's client on first use.
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { LatchWallet } from '../latch-types'
import { createMemoryStorage } from '../storage'

const mockWallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function setup(balance: () => string) {
  const wagmiConfig = createConfig({
    chains: [mainnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    batch: { multicall: false },
    transports: {
      [mainnet.id]: custom({
        async request({ method }: { method: string }) {
          if (method === 'eth_getBalance') return balance()
          throw new Error(`unexpected ${method}`)
        },
      }),
    },
  })
  return createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], wagmiConfig })
}

describe('createLatch account wiring', () => {
  it('a failed native balance read shows 0.00 ETH and "Token Balance Unavailable"', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    const latch = setup(() => {
      throw new Error('upstream down')
    })
    await latch.connectWallet(mockWallet)
    // viem retries a failing read three times first (spec §9: 3 retries, 150 ms doubling).
    await vi.waitFor(() => expect(latch.getState().account.balance).toEqual({ formatted: '0.00', symbol: 'ETH' }), { timeout: 5000 })
    expect(latch.getState().toast).toMatchObject({ message: 'Token Balance Unavailable', variant: 'error' })
  })

  it("the visitor's own transaction reads the native balance again", async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    let wei = '0xde0b6b3a7640000' // 1 ETH
    const latch = setup(() => wei)
    await latch.connectWallet(mockWallet)
    await vi.waitFor(() => expect(latch.getState().account.balance?.formatted).toBe('1.000'))
    wei = '0x6f05b59d3b20000' // 0.5 ETH
    latch.accountData.notifyTransaction({ hash: '0x1', chainId: 1, tokens: [] })
    await vi.waitFor(() => expect(latch.getState().account.balance?.formatted).toBe('0.500'))
  })

  it("accountData asks latchd's balance route with the project id (client loaded on first use)", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input))
      if (url.pathname.endsWith('/balance')) return new Response(JSON.stringify({ balances: [] }), { status: 200 })
      throw new TypeError('fetch failed')
    })
    const latch = setup(() => '0x0')
    const balances = await latch.accountData.fetchBalances({ address: alice, caipNetworkId: 'eip155:1' })
    expect(balances).toEqual([])
    const call = fetch.mock.calls.map(([input]) => new URL(String(input))).find((u) => u.pathname.endsWith('/balance'))!
    expect(call.origin).toBe('http://latchd.test')
    expect(call.searchParams.get('projectId')).toBe('a'.repeat(32))
    expect(call.searchParams.get('chainId')).toBe('eip155:1')
  })

  it('features start from the local options', () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    expect(setup(() => '0x0').getState().features).toEqual({ send: true, receive: true, activity: true, email: true })
  })
})
