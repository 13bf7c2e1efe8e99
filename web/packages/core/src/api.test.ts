import { describe, expect, it, vi } from 'vitest'
import { ApiResponseError, createApiClient, HttpError, type ErrorReport, type PendingEvent } from './api'

type Call = { url: URL; init: RequestInit | undefined }

function fakeFetch(respond: (url: URL) => Response) {
  const calls: Call[] = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    calls.push({ url, init })
    return respond(url)
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls }
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const client = (fetch: typeof globalThis.fetch, sendBeacon?: (url: string, body: string) => boolean) =>
  createApiClient({ apiUrl: 'http://latchd.test/', projectId: 'p1', sdkVersion: 'latch-core-0.1.0', fetch, ...(sendBeacon ? { sendBeacon } : {}) })

const wallet = { id: 'abc', name: 'Rainbow', image_id: 'img', mobile_link: 'rainbow://', rdns: 'me.rainbow', chains: ['eip155:1'] }

describe('api client', () => {
  it('getWallets sends the api-shapes §1.1 query and validates the page', async () => {
    const { fetch, calls } = fakeFetch(() => json({ count: 1, data: [wallet] }))
    const page = await client(fetch).getWallets({
      page: 2,
      entries: 40,
      search: '  rain ',
      include: ['a', 'b'],
      exclude: [],
      chains: ['eip155:1', 'eip155:10'],
      badge_type: 'certified',
    })
    expect(page).toEqual({ count: 1, data: [wallet] })
    const call = calls[0]!
    expect(call.url.pathname).toBe('/getWallets')
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      projectId: 'p1',
      st: 'latch',
      sv: 'latch-core-0.1.0',
      page: '2',
      entries: '40',
      search: 'rain',
      include: 'a,b',
      chains: 'eip155:1,eip155:10',
      badge_type: 'certified',
    })
  })

  it('reads project config, origins and analytics', async () => {
    const { fetch, calls } = fakeFetch((url) => {
      if (url.pathname === '/appkit/v1/config') return json({ features: [{ id: 'activity', isEnabled: true, config: null }] })
      if (url.pathname === '/projects/v1/origins') return json({ allowedOrigins: ['https://a.example'] })
      return json({ isAnalyticsEnabled: true })
    })
    const api = client(fetch)
    expect(await api.getProjectConfig()).toEqual({ features: [{ id: 'activity', isEnabled: true, config: null }] })
    expect(await api.getAllowedOrigins()).toEqual(['https://a.example'])
    expect(await api.getAnalyticsConfig()).toBe(true)
    expect(calls.map((c) => c.url.pathname)).toEqual(['/appkit/v1/config', '/projects/v1/origins', '/getAnalyticsConfig'])
  })

  it('turns a non-OK answer into "HTTP status code: N" keeping the status', async () => {
    const { fetch } = fakeFetch(() => json({ status: 'FAILED' }, 429))
    const error = await client(fetch).getAllowedOrigins().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ message: 'HTTP status code: 429', status: 429 })
  })

  it('rejects a malformed body with a clear error', async () => {
    const { fetch } = fakeFetch(() => json({ count: 1, data: [{ name: 'no id' }] }))
    await expect(client(fetch).getWallets({ page: 1, entries: 40 })).rejects.toThrow(ApiResponseError)
    await expect(client(fetch).getWallets({ page: 1, entries: 40 })).rejects.toThrow('GET /getWallets answered with a malformed body: data.0.id')
    const notJson = fakeFetch(() => new Response('<html>', { status: 200 }))
    await expect(client(notJson.fetch).getAnalyticsConfig()).rejects.toThrow('not JSON')
  })

  it('builds image URLs with the common query', () => {
    const api = client(fakeFetch(() => json({})).fetch)
    expect(api.walletImageUrl('a/b')).toBe('http://latchd.test/getWalletImage/a%2Fb?projectId=p1&st=latch&sv=latch-core-0.1.0')
    expect(api.assetImageUrl('eth')).toBe('http://latchd.test/public/getAssetImage/eth?projectId=p1&st=latch&sv=latch-core-0.1.0')
  })

  const event: PendingEvent = {
    eventId: '6f1c6a52-6f5d-4c57-9f3c-3c1d7a0c2b11',
    url: 'https://dapp.example/',
    domain: 'dapp.example',
    timestamp: 1,
    props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
  }

  it('sendEvents uses sendBeacon with a text/plain body, else POST /batch', async () => {
    const beacon = vi.fn(() => true)
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }))
    await client(fetch, beacon).sendEvents([event])
    expect(beacon).toHaveBeenCalledWith('http://latchd.test/batch?projectId=p1&st=latch&sv=latch-core-0.1.0', JSON.stringify([event]))
    expect(calls).toHaveLength(0)

    await client(fetch, () => false).sendEvents([event])
    expect(calls[0]!.url.pathname).toBe('/batch')
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: JSON.stringify([event]), headers: { 'Content-Type': 'text/plain;charset=UTF-8' } })
  })

  it('sendError POSTs /e', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }))
    const report: ErrorReport = {
      eventId: event.eventId,
      url: event.url,
      domain: event.domain,
      timestamp: new Date(0).toISOString(),
      props: { type: 'error', event: 'INTERNAL_SDK_ERROR', errorType: 'Error', errorMessage: 'boom', stackTrace: '' },
    }
    await client(fetch).sendError(report)
    expect(calls[0]!.url.pathname).toBe('/e')
    expect(JSON.parse(String(calls[0]!.init?.body))).toEqual(report)
  })
})
