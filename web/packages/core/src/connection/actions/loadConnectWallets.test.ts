// The Connect view's registry rows: with includeWalletIds set, the recommended
// wallets are asked from the allow-list, so the included wallets are listed.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mainnet } from 'viem/chains'
import { createLatch } from '../../latch'
import { createMemoryStorage } from '../../storage'
import { loadConnectWallets } from './loadConnectWallets'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
const entry = (id: string, name: string) => ({ id, name, image_id: 'img', mobile_link: null, desktop_link: null, webapp_link: 'https://wallet.test', chains: ['eip155:1'], rdns: null })

/** A registry of 5 wallets; getWallets honours include and exclude as latchd does. */
function stubRegistry(): URL[] {
  const registry = ['a', 'b', 'c', 'd', 'e'].map((c) => entry(c.repeat(64), `Wallet ${c}`))
  const urls: URL[] = []
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input))
    if (url.pathname !== '/getWallets') return json({})
    urls.push(url)
    const include = url.searchParams.get('include')?.split(',')
    const exclude = url.searchParams.get('exclude')?.split(',') ?? []
    const entries = Number(url.searchParams.get('entries'))
    const data = registry.filter((w) => (!include || include.includes(w.id)) && !exclude.includes(w.id)).slice(0, entries)
    return json({ count: data.length, data })
  })
  return urls
}

describe('loadConnectWallets', () => {
  it('asks the recommended wallets from includeWalletIds, so the included wallets get rows', async () => {
    const urls = stubRegistry()
    const include = ['d'.repeat(64), 'e'.repeat(64)]
    const latch = createLatch({ apiUrl: 'http://latchd.test', networks: [mainnet], walletConnect: false, includeWalletIds: include })
    await loadConnectWallets(latch)
    const recommended = urls.find((u) => u.searchParams.get('entries') !== null)!
    expect(recommended.searchParams.get('include')).toBe(include.join(','))
    const ids = latch.getState().wallets.map((w) => w.id)
    expect(ids).toEqual(expect.arrayContaining(include))
    latch.destroy()
  })

  it('sends no include without includeWalletIds', async () => {
    const urls = stubRegistry()
    const latch = createLatch({ apiUrl: 'http://latchd.test', networks: [mainnet], walletConnect: false })
    await loadConnectWallets(latch)
    expect(urls.every((u) => !u.searchParams.has('include'))).toBe(true)
    expect(latch.getState().wallets.filter((w) => w.kind === 'recommended').length).toBeGreaterThan(0)
    latch.destroy()
  })
})
