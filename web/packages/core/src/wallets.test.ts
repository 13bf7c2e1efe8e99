import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { walletSchema, type GetWalletsParams, type RegistryWallet, type WalletsPage } from './api'
import { createMemoryStorage } from './storage'
import {
  isRegistryWallet,
  buildWalletList,
  createAllWalletsController,
  createRecentWallets,
  filterWalletsForPlatform,
  RECENT_WALLETS_KEY,
  SEARCH_DEBOUNCE_MS,
  type WalletListInput,
} from './wallets'

const w = (id: string, extra: Partial<RegistryWallet> = {}): RegistryWallet => ({ id, name: id.toUpperCase(), image_id: `img-${id}`, mobile_link: `${id}://`, ...extra })
const metamask = w('mm', { name: 'MetaMask', rdns: 'io.metamask' })
const rainbow = w('rb', { name: 'Rainbow', rdns: 'me.rainbow' })
const trust = w('tr', { name: 'Trust' })
const desktopOnly = w('dk', { mobile_link: null, desktop_link: 'dk://' })

const base: WalletListInput = {
  announced: [],
  registry: [],
  recent: [],
  isMobile: false,
  showWalletConnect: true,
}
const ids = (input: Partial<WalletListInput>) => buildWalletList({ ...base, ...input }).map((r) => `${r.kind}:${r.id}`)

describe('buildWalletList', () => {
  it('orders sections walletConnect, recent, injected, featured, custom, external, recommended', () => {
    expect(
      ids({
        announced: [{ id: 'io.metamask', name: 'MetaMask', icon: 'data:mm', rdns: 'io.metamask' }],
        registry: [metamask, rainbow, trust, w('x1'), w('x2'), w('x3'), w('x4'), w('x5')],
        recent: [w('r1')],
        featuredWalletIds: ['tr'],
        customWallets: [{ id: 'c1', name: 'Custom' }],
        external: [{ id: 'coinbase', name: 'Coinbase' }],
      }),
    ).toEqual([
      'walletConnect:walletConnect',
      'recent:r1',
      'injected:mm',
      'featured:tr',
      'custom:c1',
      'external:coinbase',
      'recommended:rb',
      'recommended:x1',
      'recommended:x2',
      'recommended:x3',
    ])
  })

  it('follows a custom connectorTypeOrder and leaves out unlisted sections', () => {
    expect(ids({ registry: [rainbow], recent: [trust], connectorTypeOrder: ['recommended', 'recent'] })).toEqual(['recommended:rb', 'recent:tr'])
  })

  it('merges an announcement with its registry entry by rdns', () => {
    const [row] = buildWalletList({ ...base, showWalletConnect: false, registry: [metamask], announced: [{ id: 'io.metamask', name: 'MetaMask Flask', icon: 'data:flask', rdns: 'io.metamask' }] })
    expect(row).toMatchObject({ id: 'mm', name: 'MetaMask Flask', imageUrl: 'data:flask', connectorId: 'io.metamask', mobileLink: 'mm://', installed: true, kind: 'injected' })
    const [unknown] = buildWalletList({ ...base, showWalletConnect: false, announced: [{ id: 'x.y', name: 'Y', icon: 'data:y', rdns: 'x.y' }] })
    expect(unknown).toMatchObject({ id: 'announced:x.y', connectorId: 'x.y', kind: 'injected', installed: true })
  })

  it('excludes wallets by id, and installed ones by their registry rdns', () => {
    expect(
      ids({
        showWalletConnect: false,
        registry: [metamask, rainbow, trust],
        announced: [{ id: 'io.metamask', name: 'MetaMask', icon: 'd', rdns: 'io.metamask' }],
        excludeWalletIds: ['mm', 'tr'],
      }),
    ).toEqual(['recommended:rb'])
  })

  it('include limits registry sections; featured follow their given order', () => {
    expect(ids({ showWalletConnect: false, registry: [metamask, rainbow, trust], includeWalletIds: ['rb', 'tr'], featuredWalletIds: ['tr', 'rb'] })).toEqual([
      'featured:tr',
      'featured:rb',
    ])
  })

  it('on mobile: no WalletConnect row and only wallets with a mobile or web-app link', () => {
    expect(ids({ isMobile: true, registry: [desktopOnly, rainbow, w('web', { mobile_link: null, webapp_link: 'https://w' })] })).toEqual([
      'recommended:rb',
      'recommended:web',
    ])
    expect(filterWalletsForPlatform([desktopOnly, rainbow], false)).toHaveLength(2)
  })

  it('shows a wallet once: installed wins over recent and recommended', () => {
    expect(
      ids({
        showWalletConnect: false,
        registry: [rainbow],
        recent: [rainbow, trust],
        announced: [{ id: 'me.rainbow', name: 'Rainbow', icon: 'd', rdns: 'me.rainbow' }],
      }),
    ).toEqual(['recent:tr', 'injected:rb'])
  })
})

describe('recent wallets', () => {
  it('keeps at most 2, most recent first, under the latch: prefix', () => {
    const storage = createMemoryStorage()
    const recent = createRecentWallets(storage)
    recent.add(metamask)
    recent.add(rainbow)
    recent.add(metamask)
    expect(recent.get().map((x) => x.id)).toEqual(['mm', 'rb'])
    recent.add(trust)
    expect(createRecentWallets(storage).get().map((x) => x.id)).toEqual(['tr', 'mm'])
    expect(RECENT_WALLETS_KEY).toBe('latch:recentWallets')
    recent.clear()
    expect(recent.get()).toEqual([])
  })

  it('reads a stored wallet back only when it has walletSchema\'s shape', () => {
    const samples: unknown[] = [
      rainbow,
      { id: 'x', name: 'X', homepage: null, chains: ['eip155:1'], order: 3, injected: [{ namespace: 'eip155', injected_id: 'x' }], supports_wc: true },
      { id: '', name: 'Empty id' },
      { id: 'x' },
      { id: 'x', name: 'X', image_id: null },
      { id: 'x', name: 'X', badge_type: 'gold' },
      { id: 'x', name: 'X', chains: [1] },
      { id: 'x', name: 'X', injected: [{ namespace: 1 }] },
      null,
      'wallet',
    ]
    for (const sample of samples) expect(isRegistryWallet(sample)).toBe(walletSchema.safeParse(sample).success)
  })

  it('treats unreadable storage as empty and survives a failing setItem', () => {
    const storage = createMemoryStorage()
    storage.setItem(RECENT_WALLETS_KEY, '{not json')
    expect(createRecentWallets(storage).get()).toEqual([])
    const full = { ...createMemoryStorage(), setItem: () => { throw new Error('QuotaExceededError') } }
    expect(createRecentWallets(full).add(rainbow).map((x) => x.id)).toEqual(['rb'])
  })

  it('works without localStorage (Node)', () => {
    const recent = createRecentWallets()
    recent.add(rainbow)
    expect(recent.get()).toHaveLength(1)
  })
})

describe('AllWallets controller', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  const fakeApi = (pages: (p: GetWalletsParams) => WalletsPage) => {
    const calls: GetWalletsParams[] = []
    return { calls, api: { getWallets: vi.fn(async (p: GetWalletsParams) => (calls.push(p), pages(p))) } }
  }

  it('loads 40 per page, excluding excluded and featured ids, until count is reached', async () => {
    const { api, calls } = fakeApi((p) => ({ count: 41, data: p.page === 1 ? [rainbow, trust] : [trust, metamask] }))
    const list = createAllWalletsController({ api, excludeWalletIds: ['x'], featuredWalletIds: ['f'], chains: ['eip155:1'], isMobile: false })
    await list.loadNextPage()
    expect(calls[0]).toEqual({ page: 1, entries: 40, exclude: ['x', 'f'], chains: ['eip155:1'] })
    expect(list.hasMore()).toBe(true)
    await list.loadNextPage()
    expect(list.store.getState()).toMatchObject({ page: 2, count: 41, loading: false })
    expect(list.store.getState().wallets.map((x) => x.id)).toEqual(['rb', 'tr', 'mm'])
    expect(list.hasMore()).toBe(false)
    await list.loadNextPage()
    expect(calls).toHaveLength(2)
  })

  it('keeps the error message when a page fails', async () => {
    const api = { getWallets: vi.fn(() => Promise.reject(new Error('HTTP status code: 500'))) }
    const list = createAllWalletsController({ api, isMobile: false })
    await list.loadNextPage()
    expect(list.store.getState()).toMatchObject({ loading: false, error: 'HTTP status code: 500', page: 0 })
  })

  it('searches 100 entries after 300 ms of quiet, filtered for mobile', async () => {
    const { api, calls } = fakeApi(() => ({ count: 2, data: [desktopOnly, rainbow] }))
    const list = createAllWalletsController({ api, includeWalletIds: ['rb', 'dk'], isMobile: true })
    list.search('r')
    list.search('ra ')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1)
    expect(calls).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual([{ page: 1, entries: 100, search: 'ra', include: ['rb', 'dk'] }])
    expect(list.store.getState()).toMatchObject({ query: 'ra ', searching: false })
    expect(list.store.getState().results.map((x) => x.id)).toEqual(['rb'])
    list.search('')
    expect(list.store.getState().results).toEqual([])
  })
})
