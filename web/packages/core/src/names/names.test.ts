// The names module: the rules' messages (latchd's, internal/names), the
// profile client's answers and refusals, and the register flow over a real
// Latch (spec §4: sign, register, profile name set, success view; §8 messages).
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiResponseError } from '../apiBase'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { LatchWallet } from '../latch-types'
import { createMemoryStorage } from '../storage'
import { initialEmbeddedState } from '../embedded/state'
import type { Latch } from '../latch-types'
import { createNamesClient, NamesRequestError } from './client'
import { accountHasNames, accountIsEmbedded, accountNameError, coinTypeOf, getNamesState, registerName, registerUnavailable } from './index'

const record = (name: string, address: string) => ({
  name,
  registered_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  attributes: {},
  addresses: { '60': { address, created_at: '2026-01-01T00:00:00Z' } },
})
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const refusal = (status: number, description: string) => json({ status: 'FAILED', code: 'invalid', reasons: [{ field: 'name', description }] }, status)

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('accountNameError', () => {
  it.each([
    ['alice', undefined],
    ['Alice-2', undefined],
    ['', 'A name is required'],
    ['abc', 'A name must be at least 4 characters'],
    ['al_ce', 'A name may only contain letters, digits and hyphens, not "_"'],
    ['alice.eth', 'A name is one label, without dots'],
    ['xn--alice', 'A name must not have hyphens as its third and fourth characters'],
    ['a'.repeat(64), 'A name must be at most 63 characters'],
  ])('%j → %j', (label, message) => {
    expect(accountNameError(label)).toBe(message)
  })

  it('speaks the instance’s language, plurals by its rules', () => {
    const catalogue = {
      'names.ruleTooShort_one': 'Имя должно содержать не менее {count} символа',
      'names.ruleTooShort_few': 'Имя должно содержать не менее {count} символов',
      'names.ruleTooShort_many': 'Имя должно содержать не менее {count} символов',
      'names.ruleTooShort_other': 'Имя должно содержать не менее {count} символа',
    }
    const latch = { getState: () => ({ locale: 'ru', catalogue }) } as unknown as Latch
    expect(accountNameError('abc', latch)).toBe('Имя должно содержать не менее 4 символов')
    expect(accountNameError('', latch)).toBe('A name is required')
  })
})

describe('coinTypeOf', () => {
  it('is 0x80000000 | chainId below 2^31, and refuses larger ids', () => {
    expect(coinTypeOf(31337)).toBe(2147514985)
    expect(() => coinTypeOf(2 ** 31)).toThrow('must be below 2^31')
  })
})

describe('createNamesClient', () => {
  const client = (fetch: typeof globalThis.fetch) => createNamesClient({ apiUrl: 'http://latchd.test', projectId: 'p', sdkVersion: 'react-0', fetch })

  it('lookup: [] is null, a record is the record; apiVersion=2 is asked', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(json([])).mockResolvedValueOnce(json(record('alice.latch.test', alice)))
    expect(await client(fetch).lookup('alice.latch.test')).toBeNull()
    expect((await client(fetch).lookup('alice.latch.test'))?.name).toBe('alice.latch.test')
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/v1/profile/account/alice.latch.test?projectId=p&st=latch&sv=react-0&apiVersion=2')
  })

  it("a refusal carries latchd's reason; a malformed answer names the route", async () => {
    await expect(client(async () => refusal(400, 'A name must be at least 4 characters')).suggestions('abc'))
      .rejects.toMatchObject({ name: 'NamesRequestError', status: 400, reason: 'A name must be at least 4 characters' })
    await expect(client(async () => json({ suggestions: [{ name: 1 }] })).suggestions('alice')).rejects.toThrow(ApiResponseError)
    await expect(client(async () => new Response('oops', { status: 502 })).reverse(alice)).rejects.toBeInstanceOf(NamesRequestError)
  })
})

describe('registerName', () => {
  const mockWallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }

  /** Makes the connected account the embedded wallet's (its frame user), as an e-mail login leaves it. */
  function asEmbedded(latch: Latch, address: string) {
    const root = latch._internal.root
    root.setState({ embedded: { ...initialEmbeddedState(), step: 'connected', user: { address, chainId: 1, accounts: [{ address, type: 'eoa' }] } } })
  }

  /**
   * Connects a wallet to a real Latch; `frame` answers the embedded wallet's frame requests (its REGISTER_NAME posts
   * the registration to latchd with the session), and fetch answers latchd's profile routes.
   */
  async function connected(
    routes: (url: URL, init: RequestInit | undefined) => Response | undefined,
    options: { embedded?: boolean; frame?: (name: string, payload: unknown) => Promise<unknown> } = {},
  ) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(String(input))
      return routes(url, init) ?? json({ status: 'FAILED', code: 'not_found', reasons: [{ field: '', description: 'not found' }] }, 404)
    })
    const wagmiConfig = createConfig({
      chains: [mainnet],
      connectors: [mock({ accounts: [alice] })],
      storage: null,
      transports: { [mainnet.id]: custom({ request: async () => '0x0' }) },
    })
    const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], wagmiConfig })
    await latch.connectWallet(mockWallet)
    const client = latch._internal.clients.get('eip155')
    if (!client) throw new Error('no eip155 client')
    const sign = vi.spyOn(client, 'signMessage').mockResolvedValue('0xsigned')
    const request = vi.fn(options.frame ?? (async () => { throw new Error('unexpected frame request') }))
    if (options.embedded !== false) {
      asEmbedded(latch, alice)
      // The embedded wallet's frame client, as far as names use it.
      Object.assign(latch._internal, { embedded: { frame: async () => ({ request }) } })
    }
    return { latch, sign, request }
  }

  it("an external wallet's account cannot register: 'Address or auth connector not found' (spec §5), nothing signed or sent", async () => {
    const { latch, sign, request } = await connected(() => undefined, { embedded: false })
    expect(accountIsEmbedded(latch)).toBe(false)
    expect(registerUnavailable(latch)).toBe('Address or auth connector not found')
    await expect(registerName(latch, 'newcomer')).rejects.toThrow('Address or auth connector not found')
    expect(sign).not.toHaveBeenCalled()
    expect(request).not.toHaveBeenCalled()
    expect(globalThis.fetch).not.toHaveBeenCalled()
    asEmbedded(latch, '0x000000000000000000000000000000000000dEaD')
    expect(accountIsEmbedded(latch)).toBe(false)
    asEmbedded(latch, alice.toUpperCase().replace('0X', '0x'))
    expect(accountIsEmbedded(latch)).toBe(true)
    // Without the embedded wallet itself (its frame) there is no session to send.
    await expect(registerName(latch, 'newcomer')).rejects.toThrow('Address or auth connector not found')
    expect(sign).not.toHaveBeenCalled()
  })

  it('names are looked up on mainnet, not on a test network, unless the app gave that network ENS contracts (spec §5)', async () => {
    const { latch } = await connected(() => undefined)
    expect(accountHasNames(latch)).toBe(true)
    const devnet = { ...sepolia, id: 31337, contracts: { ensUniversalResolver: { address: '0x4A3E739cEd0339c606B63954d9b34Ccb2dDFDC49' as const } } }
    const bare = { ...sepolia, contracts: {} }
    const at = (network: object) => ({ ...latch, getState: () => ({ ...latch.getState(), activeNetwork: network }) }) as unknown as Latch
    expect(accountHasNames(at(bare))).toBe(false)
    expect(accountHasNames(at(devnet))).toBe(true)
  })

  it('asks whether it is free, has the wallet sign {name, attributes, timestamp}, has the frame register it with the session, sets the profile name and shows success', async () => {
    const { latch, sign, request } = await connected(
      (url) => {
        if (url.pathname === '/v1/profile/suggestions/newcomer') return json({ suggestions: [{ name: 'newcomer.latch.test', registered: false }] })
        return undefined
      },
      { frame: async () => record('newcomer.latch.test', alice) },
    )
    latch.push('RegisterAccountName')
    expect(registerUnavailable(latch)).toBeUndefined()
    const record_ = await registerName(latch, 'Newcomer')
    expect(record_.name).toBe('newcomer.latch.test')
    const signed = sign.mock.calls[0]?.[0]
    expect(signed?.address).toBe(alice)
    const message = JSON.parse(String(signed?.message)) as { name: string; attributes: object; timestamp: number }
    expect(message).toMatchObject({ name: 'newcomer.latch.test', attributes: {} })
    expect(Math.abs(message.timestamp - Date.now() / 1000)).toBeLessThan(5)
    expect(request.mock.calls).toEqual([['REGISTER_NAME', { coinType: (0x80000000 | 1) >>> 0, address: alice, message: signed?.message, signature: '0xsigned' }]])
    // The page itself posts no registration: latchd would refuse it without the session.
    for (const [input, init] of vi.mocked(globalThis.fetch).mock.calls) expect(init?.method ?? 'GET', String(input)).toBe('GET')
    expect(getNamesState(latch)).toEqual({ step: 'idle', profileNames: { [alice.toLowerCase()]: 'newcomer.latch.test' } })
    expect(latch.getState().view).toBe('RegisterAccountNameSuccess')
  })

  it("a taken, reserved or look-alike name is refused before signing; latchd's refusal is shown as it is, else the spec's message; the step returns to idle", async () => {
    let answer: () => Promise<unknown> = async () => {
      throw new Error('Your account may register 1 name a day; try again in 24 h')
    }
    const { latch, sign } = await connected(
      (url) => {
        if (url.pathname === '/v1/profile/suggestions/taken') return json({ suggestions: [{ name: 'taken.latch.test', registered: true }] })
        if (url.pathname === '/v1/profile/suggestions/supp0rt') {
          return json({ suggestions: [{ name: 'supp0rt.latch.test', registered: true, reason: 'supp0rt.latch.test looks like support.latch.test, which is reserved' }] })
        }
        if (url.pathname === '/v1/profile/suggestions/newcomer') return json({ suggestions: [{ name: 'newcomer.latch.test', registered: false }] })
        return undefined
      },
      { frame: () => answer() },
    )
    await expect(registerName(latch, 'taken')).rejects.toThrow('taken.latch.test is already taken')
    await expect(registerName(latch, 'supp0rt')).rejects.toThrow('supp0rt.latch.test looks like support.latch.test, which is reserved')
    expect(sign).not.toHaveBeenCalled()
    await expect(registerName(latch, 'newcomer')).rejects.toThrow('Your account may register 1 name a day; try again in 24 h')
    answer = async () => {
      throw new Error('HTTP status code: 500')
    }
    await expect(registerName(latch, 'newcomer')).rejects.toThrow('Error registering name newcomer')
    answer = async () => ({ name: 7 })
    await expect(registerName(latch, 'newcomer')).rejects.toThrow('Error registering name newcomer')
    await expect(registerName(latch, 'abc')).rejects.toThrow('A name must be at least 4 characters')
    expect(getNamesState(latch)?.step).toBe('idle')
    expect(getNamesState(latch)?.profileNames).toEqual({})
  })
})
