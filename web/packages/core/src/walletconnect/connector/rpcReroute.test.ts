import { afterEach, describe, expect, it, vi } from 'vitest'
import { withLatchdRpc } from './rpcReroute'

afterEach(() => vi.unstubAllGlobals())

describe('withLatchdRpc', () => {
  it("sends the SDK's signature check to latchd's RPC proxy during the run, nothing else, and restores fetch", async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{}'))
    vi.stubGlobal('fetch', fetch)
    const result = await withLatchdRpc('http://latchd.test/', async () => {
      await globalThis.fetch('https://rpc.walletconnect.org/v1/?chainId=eip155:1&projectId=p', { method: 'POST', body: '{}' })
      await globalThis.fetch('https://other.example/x')
      return 'done'
    })
    expect(result).toBe('done')
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(['http://latchd.test/v1/?chainId=eip155:1&projectId=p', 'https://other.example/x'])
    expect(fetch.mock.calls[0]![1]).toEqual({ method: 'POST', body: '{}' })
    expect(globalThis.fetch).toBe(fetch)
    await expect(withLatchdRpc('http://latchd.test', async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(globalThis.fetch).toBe(fetch)
  })
})
