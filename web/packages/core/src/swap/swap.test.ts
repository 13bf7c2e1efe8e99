// The swap module: the convert client's requests, answers and refusals
// (latchd's reasons shown as they are, spec §8), and amounts in base units.
// The whole flow against a real latchd and its dev AMM is web/e2e/tests/swap.test.mjs.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiResponseError } from '../apiBase'
import { createSwapClient, SwapRequestError } from './client'
import type { Latch } from '../latch-types'
import { findSwapToken, isNativeSwapToken, swapAmount, SWAP_MESSAGES, SwapError } from './index'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const refusal = (status: number, description: string) => json({ status: 'FAILED', code: 'invalid', reasons: [{ field: 'amount', description }] }, status)
const usdc = { name: 'USD Coin', symbol: 'USDC', address: 'eip155:31337:0x00000000000000000000000000000000000000c1', decimals: 6, logoUri: '' }
const eth = { name: 'Ether', symbol: 'ETH', address: 'eip155:31337:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', decimals: 18, logoUri: '' }

afterEach(() => vi.restoreAllMocks())

describe('findSwapToken', () => {
  it('finds a token by symbol in any case, by CAIP-10 id or by plain address; nothing else', () => {
    const tokens = [eth, usdc]
    expect(findSwapToken(tokens, 'usdc')).toBe(usdc)
    expect(findSwapToken(tokens, ' ETH ')).toBe(eth)
    expect(findSwapToken(tokens, usdc.address.toUpperCase())).toBe(usdc)
    expect(findSwapToken(tokens, '0x00000000000000000000000000000000000000C1')).toBe(usdc)
    expect(findSwapToken(tokens, 'DOGE')).toBeUndefined()
    expect(findSwapToken(tokens, '0x00000000000000000000000000000000000000c2')).toBeUndefined()
  })
})

describe('createSwapClient', () => {
  const client = (fetch: typeof globalThis.fetch) => createSwapClient({ apiUrl: 'http://latchd.test', projectId: 'p', sdkVersion: 'react-0', fetch })

  it('asks for a quote with the CAIP-10 tokens and base units, and reads amounts as bigints', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(
      json({ quotes: [{ id: null, fromAmount: '100000000', fromAccount: usdc.address, toAmount: '33232000000000000', toAccount: eth.address, path: [usdc.address, eth.address], priceImpact: 0.0033 }] }),
    )
    const q = await client(fetch).quote({ from: usdc.address, to: eth.address, amount: 100_000_000n, userAddress: 'eip155:31337:0xabc' })
    expect(q).toEqual({ fromAmount: 100_000_000n, toAmount: 33_232_000_000_000_000n, path: [usdc.address, eth.address], priceImpact: 0.0033 })
    const url = new URL(String(fetch.mock.calls[0]?.[0]))
    expect(url.pathname).toBe('/v1/convert/quotes')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ from: usdc.address, to: eth.address, amount: '100000000', userAddress: 'eip155:31337:0xabc', projectId: 'p' })
  })

  it('posts build-transaction with the slippage and the projectId in the body, and reads the router call', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(
      json({ tx: { from: 'eip155:31337:0xabc', to: 'eip155:31337:0xRouter', data: '0x38ed1739', amount: '0', eip155: { gas: '180000', gasPrice: '2000000000' } }, quote: { toAmount: '10', minimumOut: '9' } }),
    )
    const tx = await client(fetch).buildSwap({ userAddress: 'eip155:31337:0xabc', from: usdc.address, to: eth.address, amount: 5n, slippage: 1 })
    expect(tx).toEqual({ to: '0xRouter', data: '0x38ed1739', value: 0n, gas: 180_000n, gasPrice: 2_000_000_000n, toAmount: 10n, minimumOut: 9n })
    const init = fetch.mock.calls[0]?.[1]
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({ amount: '5', eip155: { slippage: 1 }, projectId: 'p', from: usdc.address, to: eth.address, userAddress: 'eip155:31337:0xabc' })
  })

  it("a refusal carries latchd's reason; a malformed answer names the route", async () => {
    const refused = client(vi.fn<typeof globalThis.fetch>().mockResolvedValue(refusal(400, 'No liquidity to swap USDC for LONE on eip155:31337')))
    await expect(refused.quote({ from: usdc.address, to: eth.address, amount: 1n, userAddress: '' })).rejects.toEqual(
      new SwapRequestError(400, 'No liquidity to swap USDC for LONE on eip155:31337', 'GET /v1/convert/quotes'),
    )
    const unsupported = client(vi.fn<typeof globalThis.fetch>().mockResolvedValue(refusal(400, 'Network not supported for Swaps')))
    await expect(unsupported.tokens('eip155:1')).rejects.toThrow('Network not supported for Swaps')
    const malformed = client(vi.fn<typeof globalThis.fetch>().mockImplementation(async () => json({ allowance: 5 })))
    await expect(malformed.allowance({ tokenAddress: usdc.address, userAddress: '' })).rejects.toThrow(ApiResponseError)
    await expect(malformed.allowance({ tokenAddress: usdc.address, userAddress: '' })).rejects.toThrow('GET /v1/convert/allowance answered with a malformed body: allowance')
  })

  it('reads approve transactions, allowances and gas prices', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(json({ tx: { from: 'eip155:31337:0xabc', to: usdc.address, data: '0x095ea7b3', value: '0', eip155: { gas: 55000, gasPrice: '7' } } }))
      .mockResolvedValueOnce(json({ allowance: '115792089237316195423570985008687907853269984665640564039457584007913129639935' }))
      .mockResolvedValueOnce(json({ standard: '1', fast: '2', instant: '3' }))
    const c = client(fetch)
    expect(await c.buildApprove({ userAddress: 'eip155:31337:0xabc', from: usdc.address, to: eth.address })).toEqual({
      to: '0x00000000000000000000000000000000000000c1', data: '0x095ea7b3', value: 0n, gas: 55_000n, gasPrice: 7n,
    })
    expect(await c.allowance({ tokenAddress: usdc.address, userAddress: 'eip155:31337:0xabc' })).toBe(2n ** 256n - 1n)
    expect(await c.gasPrice('eip155:31337')).toEqual({ standard: 1n, fast: 2n, instant: 3n })
  })
})

describe('swapAmount', () => {
  it.each([
    ['100', 100_000_000n],
    ['0.000001', 1n],
    [' 2.5 ', 2_500_000n],
  ])('%j USDC → %s', (amount, base) => {
    expect(swapAmount(usdc, amount)).toBe(base)
  })
  it.each(['', '0', 'abc', '-1', '0.0000001'])('%j is refused', (amount) => {
    expect(() => swapAmount(usdc, amount)).toThrow()
  })
  it('names an empty amount, in the instance’s language when given one; the key stays', () => {
    expect(() => swapAmount(usdc, '')).toThrow('Enter an amount')
    const latch = { getState: () => ({ locale: 'de', catalogue: { 'swap.enterAmount': 'Betrag eingeben' } }) } as unknown as Latch
    const error = (() => {
      try {
        swapAmount(usdc, '0', latch)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SwapError)
    expect(error).toMatchObject({ key: SWAP_MESSAGES.invalidAmount, message: 'Betrag eingeben' })
  })
})

describe('isNativeSwapToken', () => {
  it('is the 0xeeee…eeee address in any case', () => {
    expect(isNativeSwapToken(eth)).toBe(true)
    expect(isNativeSwapToken(usdc)).toBe(false)
  })
})
