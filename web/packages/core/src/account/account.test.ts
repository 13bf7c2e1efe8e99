import { describe, expect, it, vi } from 'vitest'
import { ApiResponseError, HttpError } from '../api'
import {
  activityItem,
  formatActivityDate,
  groupActivity,
  operationSign,
  relativeTimeLabel,
  visibleTransactions,
} from './activity'
import { createAccountClient, HISTORY_NEEDS_ADDRESS } from './client'
import { ACCOUNT_CACHE_MS, accountQueryKeys, BALANCE_RETRY_LOCK_MS, BalanceRetryLockedError, createAccountData } from './data'
import { formatFiat, formatQuantity, sortBalances, tokenContractAddress, totalFiatValue } from './format'
import type { Transaction, TransactionTransfer } from './types'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function fakeFetch(respond: (url: URL, init: RequestInit | undefined) => Response | Promise<Response>) {
  const calls: { url: URL; init: RequestInit | undefined }[] = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    calls.push({ url, init })
    return respond(url, init)
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls }
}

const client = (fetch: typeof globalThis.fetch) => createAccountClient({ apiUrl: 'http://latchd.test/', projectId: 'p1', sdkVersion: 'react-0.1.0', fetch })
const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const native = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', value: 25000, price: 2500, quantity: { decimals: '18', numeric: '10' }, iconUrl: 'http://i/eth' }
const usdc = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: 'eip155:31337',
  address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
  value: 98.5,
  price: 1,
  quantity: { decimals: '6', numeric: '98.5' },
  iconUrl: '',
}

describe('account client', () => {
  it('GET balance: path, query (currency, chainId, forceUpdate, projectId, st, sv), shape; drops decimals "0"', async () => {
    const nft = { ...usdc, symbol: 'NFT', address: 'eip155:31337:0x01', quantity: { decimals: '0', numeric: '1' } }
    const { fetch, calls } = fakeFetch(() => json({ balances: [native, usdc, nft] }))
    const balances = await client(fetch).getBalances({ address, caipNetworkId: 'eip155:31337', forceUpdate: [usdc.address] })
    expect(balances).toEqual([native, usdc])
    const { url } = calls[0]!
    expect(url.pathname).toBe(`/v1/account/${address}/balance`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId: 'p1',
      st: 'latch',
      sv: 'react-0.1.0',
      currency: 'usd',
      chainId: 'eip155:31337',
      forceUpdate: usdc.address,
    })
  })

  it('normalises numeric decimals, a null price and a missing icon', async () => {
    const { fetch } = fakeFetch(() => json({ balances: [{ ...usdc, quantity: { decimals: 6, numeric: '1' }, price: null, iconUrl: null }] }))
    const [b] = await client(fetch).getBalances({ address, caipNetworkId: 'eip155:31337' })
    expect(b).toMatchObject({ price: 0, iconUrl: '', quantity: { decimals: '6', numeric: '1' } })
  })

  it('a non-2xx answer is HttpError "HTTP status code: N"; a malformed body names the route', async () => {
    await expect(client(fakeFetch(() => json({}, 503)).fetch).getBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toThrow(
      new HttpError(503, '/v1/account/{address}/balance'),
    )
    const bad = client(fakeFetch(() => json({ balances: [{ name: 1 }] })).fetch)
    await expect(bad.getBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toBeInstanceOf(ApiResponseError)
    await expect(bad.getBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toThrow(/GET \/v1\/account\/\{address\}\/balance answered with a malformed body: balances\.0\.name/)
  })

  it('GET history with chainId and cursor; next null at the end; needs an address', async () => {
    const tx = transaction({ id: 't1' })
    const { fetch, calls } = fakeFetch(() => json({ data: [tx], next: null }))
    const page = await client(fetch).getHistory({ address, caipNetworkId: 'eip155:31337', cursor: 'c2' })
    expect(page).toEqual({ data: [tx], next: null })
    expect(calls[0]!.url.pathname).toBe(`/v1/account/${address}/history`)
    expect(calls[0]!.url.searchParams.get('cursor')).toBe('c2')
    expect(calls[0]!.url.searchParams.get('chainId')).toBe('eip155:31337')
    await expect(client(fetch).getHistory({ address: '', caipNetworkId: 'eip155:1' })).rejects.toThrow(HISTORY_NEEDS_ADDRESS)
    expect(HISTORY_NEEDS_ADDRESS).toBe("Transactions can't be fetched without an accountAddress")
  })

  it('GET identity and POST fungible/price', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.pathname.startsWith('/v1/identity/')
        ? json({ name: 'alice.eth', avatar: null, resolvedAt: 'x' })
        : json({ fungibles: [{ address: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', name: 'Ether', symbol: 'ETH', iconUrl: '', price: 2500 }] }),
    )
    expect(await client(fetch).getIdentity({ address, sender: address })).toEqual({ name: 'alice.eth', avatar: null })
    expect(calls[0]!.url.searchParams.get('sender')).toBe(address)
    const prices = await client(fetch).getTokenPrices({ addresses: ['eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'] })
    expect(prices[0]!.price).toBe(2500)
    const post = calls[1]!
    expect(post.url.pathname).toBe('/v1/fungible/price')
    expect(post.url.searchParams.get('projectId')).toBe('p1')
    expect(post.init?.method).toBe('POST')
    expect(JSON.parse(String(post.init?.body))).toEqual({ currency: 'usd', addresses: ['eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'], projectId: 'p1' })
  })
})

describe('account data: balance loading, retry lock, toast (spec §4, §8)', () => {
  it('sets balanceLoading while fetching and clears it after', async () => {
    let release!: () => void
    const { fetch } = fakeFetch(() => new Promise<Response>((resolve) => (release = () => resolve(json({ balances: [native] })))))
    const data = createAccountData({ client: client(fetch), showError: vi.fn() })
    const pending = data.fetchBalances({ address, caipNetworkId: 'eip155:31337' })
    expect(data.store.getState().balanceLoading).toBe(true)
    await vi.waitFor(() => expect(release).toBeTypeOf('function'))
    release()
    expect(await pending).toEqual([native])
    expect(data.store.getState().balanceLoading).toBe(false)
  })

  it('a failure shows "Token Balance Unavailable" once and locks retries for 30 s', async () => {
    let now = 1_000_000
    const { fetch, calls } = fakeFetch(() => json({}, 500))
    const showError = vi.fn()
    const data = createAccountData({ client: client(fetch), showError, now: () => now })
    await expect(data.fetchBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toThrow('HTTP status code: 500')
    expect(showError).toHaveBeenCalledExactlyOnceWith('Token Balance Unavailable')
    expect(data.store.getState()).toMatchObject({ balanceLoading: false, balanceRetryAt: now + BALANCE_RETRY_LOCK_MS })
    now += BALANCE_RETRY_LOCK_MS - 1
    await expect(data.fetchBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toBeInstanceOf(BalanceRetryLockedError)
    expect(calls).toHaveLength(1) // latchd was not asked while locked
    expect(showError).toHaveBeenCalledTimes(1)
    now += 1
    await expect(data.fetchBalances({ address, caipNetworkId: 'eip155:1' })).rejects.toThrow('HTTP status code: 500')
    expect(calls).toHaveLength(2)
  })

  it("the visitor's own transaction lifts the lock, notifies listeners and queues forceUpdate tokens", async () => {
    const { fetch } = fakeFetch(() => json({}, 500))
    const data = createAccountData({ client: client(fetch), showError: vi.fn() })
    await data.fetchBalances({ address, caipNetworkId: 'eip155:31337' }).catch(() => {})
    const listener = vi.fn()
    data.onTransaction(listener)
    data.notifyTransaction({ hash: '0x1', chainId: 31337, tokens: [usdc.address] })
    expect(listener).toHaveBeenCalledOnce()
    expect(data.store.getState()).toMatchObject({ balanceRetryAt: undefined, transactionCount: 1 })
    expect(data.takeForceUpdate('eip155:31337')).toEqual([usdc.address])
    expect(data.takeForceUpdate('eip155:31337')).toEqual([])
  })

  it('caches identities for 5 minutes and does not cache failures', async () => {
    let now = 0
    let fail = true
    const { fetch, calls } = fakeFetch(() => (fail ? json({}, 500) : json({ name: 'bob.eth', avatar: 'http://a' })))
    const data = createAccountData({ client: client(fetch), showError: vi.fn(), now: () => now })
    expect(await data.fetchIdentity(address)).toEqual({ name: null, avatar: null })
    fail = false
    expect(await data.fetchIdentity(address)).toEqual({ name: 'bob.eth', avatar: 'http://a' })
    now += ACCOUNT_CACHE_MS.identity - 1
    await data.fetchIdentity(address.toLowerCase())
    expect(calls).toHaveLength(2)
    now += 1
    await data.fetchIdentity(address)
    expect(calls).toHaveLength(3)
  })

  it('query keys share a prefix and ignore address case; cache times are the spec ones', () => {
    expect(accountQueryKeys.balances(address, 'eip155:1').slice(0, 2)).toEqual(accountQueryKeys.all)
    expect(accountQueryKeys.balances(address, 'eip155:1')).toEqual(accountQueryKeys.balances(address.toLowerCase(), 'eip155:1'))
    expect(ACCOUNT_CACHE_MS).toEqual({ portfolio: 30_000, nativeBalance: 30_000, names: 300_000, identity: 300_000 })
  })
})

describe('formats (spec §9)', () => {
  it('quantities with 3 decimals, fiat with 2 decimals en-US', () => {
    expect(formatQuantity('10000')).toBe('10,000.000')
    expect(formatQuantity('1.23456')).toBe('1.234')
    expect(formatQuantity('9999.97999')).toBe('9,999.979')
    expect(formatQuantity('0.0004')).toBe('0.000')
    expect(formatFiat(1234.5)).toBe('$1,234.50')
    expect(formatFiat(0)).toBe('$0.00')
    expect(formatFiat(0.005)).toBe('$0.01')
    expect(formatFiat(Number.NaN)).toBe('$0.00')
  })

  it('totals, sorting (native first, then value) and CAIP-10 token addresses', () => {
    expect(totalFiatValue([native, usdc])).toBe(25098.5)
    expect(totalFiatValue([{ price: 2, quantity: { decimals: '18', numeric: '1.5' } }])).toBe(3)
    const dai = { ...usdc, symbol: 'DAI', address: 'eip155:31337:0x02', value: 500 }
    expect(sortBalances([usdc, dai, native]).map((b) => b.symbol)).toEqual(['ETH', 'DAI', 'USDC'])
    expect(tokenContractAddress(usdc.address)).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3')
    expect(tokenContractAddress('0xabc')).toBe('0xabc')
  })
})

function transfer(patch: Partial<TransactionTransfer> = {}): TransactionTransfer {
  return { fungible_info: { name: 'USD Coin', symbol: 'USDC', icon: { url: 'http://i/usdc' } }, direction: 'out', quantity: { numeric: '1.5' }, ...patch }
}

function transaction(patch: { id?: string; operationType?: string; chain?: string; minedAt?: string; transfers?: TransactionTransfer[] | null } = {}): Transaction {
  return {
    id: patch.id ?? 'tx',
    metadata: {
      operationType: patch.operationType ?? 'send',
      hash: '0xhash',
      chain: patch.chain ?? 'eip155:31337',
      minedAt: patch.minedAt ?? new Date(2026, 6, 5, 12).toISOString(),
      sentFrom: address,
      sentTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      status: 'confirmed',
      nonce: 1,
    },
    transfers: patch.transfers === undefined ? [transfer()] : patch.transfers,
  }
}

describe('activity (spec §5, §9)', () => {
  it('signs: + for receive/deposit/borrow/claim, - for withdraw/repay/burn, none otherwise', () => {
    for (const t of ['receive', 'deposit', 'borrow', 'claim']) expect(operationSign(t)).toBe('+')
    for (const t of ['withdraw', 'repay', 'burn']) expect(operationSign(t)).toBe('-')
    for (const t of ['send', 'trade', 'approve', 'mint', 'execute']) expect(operationSign(t)).toBe('')
    expect(activityItem(transaction({ operationType: 'receive' })).descriptions).toEqual(['+1.500 USDC'])
    expect(activityItem(transaction({ operationType: 'burn' })).descriptions).toEqual(['-1.500 USDC'])
    expect(activityItem(transaction({ operationType: 'send' })).descriptions).toEqual(['1.500 USDC'])
  })

  it('several transfers show one unsigned line each; none shows the status; NFTs show their name', () => {
    const trade = transaction({ operationType: 'trade', transfers: [transfer(), transfer({ fungible_info: { symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.0005' } })] })
    expect(activityItem(trade).descriptions).toEqual(['1.500 USDC', '0.001 ETH'])
    expect(activityItem(transaction({ transfers: [] })).descriptions).toEqual(['confirmed'])
    const nft = transfer({ fungible_info: undefined, nft_info: { name: 'Punk #1', flags: { is_spam: false }, content: { preview: { url: 'http://p' } } } })
    expect(activityItem(transaction({ operationType: 'mint', transfers: [nft] }))).toMatchObject({ title: 'Minted', descriptions: ['Punk #1'], images: ['http://p'] })
  })

  it('titles, statuses, quantities and month titles follow the locale given; English without one', async () => {
    const { createLocaleFormats } = await import('../i18n/intl')
    const l = {
      locale: 'de',
      catalogue: { 'activity.receive': 'Empfangen', 'activity.statusPending': 'ausstehend', 'activity.transaction': 'Transaktion' },
      formats: createLocaleFormats('de'),
    }
    expect(activityItem(transaction({ operationType: 'receive', transfers: [transfer({ quantity: { numeric: '1234.5' } })] }), undefined, l)).toMatchObject({
      title: 'Empfangen',
      descriptions: ['+1.234,500 USDC'],
    })
    const bare = transaction({ transfers: [] })
    expect(activityItem({ ...bare, metadata: { ...bare.metadata, status: 'pending' } }, undefined, l).descriptions).toEqual(['ausstehend'])
    expect(activityItem(transaction({ operationType: '' }), undefined, l).title).toBe('Transaktion')
    // A key the catalogue lacks falls back to English; an unknown type keeps latchd's name.
    expect(activityItem(transaction({ operationType: 'send' }), undefined, l).title).toBe('Sent')
    expect(activityItem(transaction({ operationType: 'bridge' }), undefined, l).title).toBe('Bridge')
    const now = new Date(2026, 10, 28)
    const [group] = groupActivity([transaction({ minedAt: new Date(2025, 11, 3).toISOString() })], { now, locale: l })
    expect(group).toMatchObject({ title: 'Dezember 2025', items: [{ title: 'Sent' }] })
    expect(groupActivity([transaction({ minedAt: new Date(2025, 11, 3).toISOString() })], { now })[0]!.title).toBe('December 2025')
  })

  it('hides other chains and spam-only NFT transactions', () => {
    const spam = transfer({ fungible_info: undefined, nft_info: { name: 'Free', flags: { is_spam: true } } })
    const list = [
      transaction({ id: 'a' }),
      transaction({ id: 'other-chain', chain: 'eip155:1' }),
      transaction({ id: 'spam', transfers: [spam] }),
      transaction({ id: 'mixed', transfers: [spam, transfer()] }),
      transaction({ id: 'none', transfers: null }),
    ]
    expect(visibleTransactions(list, 'eip155:31337').map((t) => t.id)).toEqual(['a', 'mixed', 'none'])
  })

  it('dates as DD MMM and relative labels with sec/min/hr/d/mo/yr', () => {
    expect(formatActivityDate(new Date(2026, 6, 5, 12))).toBe('05 Jul')
    expect(formatActivityDate(new Date(2025, 11, 31, 23, 59))).toBe('31 Dec')
    const now = new Date(2026, 6, 5, 12)
    const ago = (ms: number) => relativeTimeLabel(new Date(now.getTime() - ms), now)
    const s = 1000
    const m = 60 * s
    const h = 60 * m
    const d = 24 * h
    expect(ago(5 * s)).toBe('5 sec')
    expect(ago(60 * s)).toBe('1 min')
    expect(ago(10 * m)).toBe('10 min')
    expect(ago(60 * m)).toBe('1 hr')
    expect(ago(5 * h)).toBe('5 hrs')
    expect(ago(30 * h)).toBe('1 d')
    expect(ago(3 * d)).toBe('3 d')
    expect(ago(40 * d)).toBe('1 mo')
    expect(ago(100 * d)).toBe('3 mo')
    expect(ago(400 * d)).toBe('1 yr')
    expect(ago(3 * 365 * d)).toBe('3 yr')
    expect(relativeTimeLabel(new Date(now.getTime() + 10 * s), now)).toBe('0 sec')
  })

  it('groups by month and year, newest first; the year shows only for other years', () => {
    const now = new Date(2026, 6, 20)
    const list = [
      transaction({ id: 'jun', minedAt: new Date(2026, 5, 2).toISOString() }),
      transaction({ id: 'jul-early', minedAt: new Date(2026, 6, 1).toISOString() }),
      transaction({ id: 'dec', minedAt: new Date(2025, 11, 24).toISOString() }),
      transaction({ id: 'jul-late', minedAt: new Date(2026, 6, 19).toISOString() }),
      transaction({ id: 'elsewhere', chain: 'eip155:1', minedAt: new Date(2026, 6, 19).toISOString() }),
    ]
    const groups = groupActivity(list, { caipNetworkId: 'eip155:31337', now })
    expect(groups.map((g) => [g.key, g.title, g.items.map((i) => i.id)])).toEqual([
      ['2026-07', 'July', ['jul-late', 'jul-early']],
      ['2026-06', 'June', ['jun']],
      ['2025-12', 'December 2025', ['dec']],
    ])
    expect(groups[0]!.items[0]).toMatchObject({ date: '19 Jul', relative: '1 d', title: 'Sent' })
  })

  it('the counterpart is the transfer recipient (sent) or sender (received), else the transaction to/from', () => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    const out = transaction({ transfers: [transfer({ recipient: '0xBob', sender: address })] })
    expect(activityItem({ ...out, metadata: { ...out.metadata, sentTo: token } }).counterpart).toBe('0xBob')
    expect(activityItem(transaction({ operationType: 'receive', transfers: [transfer({ direction: 'in', sender: '0xCarol' })] })).counterpart).toBe('0xCarol')
    expect(activityItem(transaction({ transfers: [] })).counterpart).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')
  })
})
