// Sign-in with X in core: the message text (as latchd's parser reads it), the
// flow over a real Latch with an app's own SIWXConfig (spec §2, §4, §8), and
// latchSiwx()'s calls to latchd (the browser test runs them against a real one).
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { Latch, LatchWallet } from '../latch-types'
import type { SIWXConfig, SIWXSession } from '../siwx'
import { createMemoryStorage } from '../storage'
import { cancelSiwx, getSiwxState, signIn, signOut, startSiwx } from './flow'
import { latchSiwx } from './latchSiwx'
import { createSiwxMessage, formatSiwxMessage } from './message'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('formatSiwxMessage', () => {
  const data = {
    domain: 'service.invalid',
    accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    statement: 'I accept the ServiceOrg Terms of Service: https://service.invalid/tos',
    uri: 'https://service.invalid/login',
    version: '1',
    chainId: 'eip155:1',
    nonce: '32891756',
    issuedAt: '2021-09-30T16:25:24Z',
    resources: ['ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/', 'https://example.com/my-web2-claim.json'],
  }

  it("writes EIP-4361's example exactly (the Chain ID as its bare reference)", () => {
    expect(formatSiwxMessage(data)).toBe(
      [
        'service.invalid wants you to sign in with your Ethereum account:',
        '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        '',
        'I accept the ServiceOrg Terms of Service: https://service.invalid/tos',
        '',
        'URI: https://service.invalid/login',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: 32891756',
        'Issued At: 2021-09-30T16:25:24Z',
        'Resources:',
        '- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
        '- https://example.com/my-web2-claim.json',
      ].join('\n'),
    )
  })

  it('writes one blank line without a statement, the optional times in order, and "Solana account" for solana', () => {
    const { statement: _, resources: __, ...bare } = data
    const text = formatSiwxMessage({ ...bare, expirationTime: '2021-10-01T00:00:00Z', notBefore: '2021-09-30T00:00:00Z', requestId: 'r-1' })
    expect(text).toContain('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\nURI: ')
    expect(text.endsWith('Issued At: 2021-09-30T16:25:24Z\nExpiration Time: 2021-10-01T00:00:00Z\nNot Before: 2021-09-30T00:00:00Z\nRequest ID: r-1')).toBe(true)
    const solana = formatSiwxMessage({ ...bare, chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', accountAddress: 'GkXn6PUbcvpwAzVCPJN8ez1GXe9YFvHrKq1fs8M8WoAS' })
    expect(solana.split('\n')[0]).toBe('service.invalid wants you to sign in with your Solana account:')
    expect(solana).toContain('Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
  })

  it('refuses a namespace without a sign-in message and a field of more than one line', () => {
    expect(() => formatSiwxMessage({ ...data, chainId: 'cosmos:cosmoshub-4' })).toThrow('Sign-in is not supported on cosmos:cosmoshub-4')
    expect(() => formatSiwxMessage({ ...data, statement: 'two\nlines' })).toThrow("The sign-in message's statement must be one line")
  })

  it('createSiwxMessage fills Issued At and keeps the text', () => {
    const { issuedAt: _, ...rest } = data
    const message = createSiwxMessage(rest)
    expect(message.issuedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(message.toString()).toBe(formatSiwxMessage({ ...rest, issuedAt: message.issuedAt }))
  })
})

/** An app's own SIWXConfig keeping sessions in memory, recording its calls. */
function memoryConfig(options: { required?: boolean; signOutOnDisconnect?: boolean; getSessions?: SIWXConfig['getSessions'] } = {}) {
  const sessions: SIWXSession[] = []
  const revoked: string[] = []
  let nonce = 0
  const config: SIWXConfig = {
    async createMessage({ accountAddress, chainId }) {
      return createSiwxMessage({ accountAddress, chainId, domain: 'app.example', uri: 'https://app.example', version: '1', nonce: `nonce${++nonce}abc` })
    },
    async addSession(session) {
      sessions.push(session)
    },
    async revokeSession(chainId, address) {
      revoked.push(`${chainId}:${address}`)
      sessions.splice(0, sessions.length)
    },
    async setSessions(list) {
      sessions.splice(0, sessions.length, ...list)
    },
    getSessions: options.getSessions ?? (async (chainId, address) => sessions.filter((s) => s.data.chainId === chainId && s.data.accountAddress === address)),
    getRequired: () => options.required ?? false,
    ...(options.signOutOnDisconnect !== undefined ? { signOutOnDisconnect: options.signOutOnDisconnect } : {}),
  }
  return { config, sessions, revoked }
}

const mockWallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }

/** A real Latch with wagmi's mock connector and `siwx`; fetch answers nothing (the Connect view's lists fail quietly). */
function setup(siwx: SIWXConfig) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json({ status: 'FAILED', reasons: [{ description: 'not here' }] }, 404))
  const wagmiConfig = createConfig({
    chains: [mainnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    transports: { [mainnet.id]: custom({ request: async () => '0x0' }) },
  })
  const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], wagmiConfig, siwx })
  startSiwx(latch)
  return latch
}

async function connect(latch: Latch) {
  await latch.connectWallet(mockWallet)
  const client = latch._internal.clients.get('eip155')!
  return { sign: vi.spyOn(client, 'signMessage').mockResolvedValue('0xsigned') }
}

const view = (latch: Latch) => latch.getState().view

describe('the sign-in flow', () => {
  it('opens SIWXSignMessage after connect without a session; signing stores the session and closes the modal', async () => {
    const { config, sessions } = memoryConfig()
    const latch = setup(config)
    const { sign } = await connect(latch)
    await vi.waitFor(() => expect(view(latch)).toBe('SIWXSignMessage'))
    expect(latch.getState()).toMatchObject({ open: true, canClose: true })
    expect(getSiwxState(latch)).toMatchObject({ status: 'signed-out', required: false, account: `eip155:1:${alice}` })

    const session = await signIn(latch)
    const text = sign.mock.calls[0]![0].message
    expect(text).toMatch(/^app\.example wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\nURI: https:\/\/app\.example\n/)
    expect(session).toMatchObject({ message: text, signature: '0xsigned', data: { accountAddress: alice, chainId: 'eip155:1', nonce: 'nonce1abc' } })
    expect(sessions).toEqual([session])
    expect(getSiwxState(latch)).toMatchObject({ status: 'signed-in', session, error: undefined })
    expect(latch.getState().open).toBe(false)
  })

  it('required: the view cannot close; a declined signature keeps it with "Signature declined"', async () => {
    const { config, sessions } = memoryConfig({ required: true })
    const latch = setup(config)
    const { sign } = await connect(latch)
    await vi.waitFor(() => expect(view(latch)).toBe('SIWXSignMessage'))
    expect(latch.getState().canClose).toBe(false)
    latch.close()
    expect(latch.getState()).toMatchObject({ open: true, view: 'SIWXSignMessage', shake: true })

    sign.mockRejectedValueOnce(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await expect(signIn(latch)).rejects.toThrow('Signature declined')
    expect(getSiwxState(latch)).toMatchObject({ status: 'signed-out', error: 'Signature declined' })
    expect(view(latch)).toBe('SIWXSignMessage')
    expect(sessions).toEqual([])

    sign.mockRejectedValueOnce(new Error('the wallet crashed'))
    await expect(signIn(latch)).rejects.toThrow('Sign message failed')
    expect(getSiwxState(latch).error).toBe('Sign message failed')

    await signIn(latch)
    expect(latch.getState()).toMatchObject({ open: false, canClose: true })
  })

  it('the sign-in errors follow the active locale; the event keeps the English text', async () => {
    const { config } = memoryConfig({ required: true })
    const latch = setup(config)
    const { sign } = await connect(latch)
    await vi.waitFor(() => expect(view(latch)).toBe('SIWXSignMessage'))
    const events: unknown[] = []
    latch.subscribeEvents((e) => events.push(e.data))
    const getState = latch.getState
    vi.spyOn(latch, 'getState').mockImplementation(() => ({ ...getState(), locale: 'de', catalogue: { 'siwx.signatureDeclined': 'Signatur abgelehnt' } }))
    sign.mockRejectedValueOnce(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await expect(signIn(latch)).rejects.toThrow('Signatur abgelehnt')
    expect(getSiwxState(latch).error).toBe('Signatur abgelehnt')
    expect(events).toContainEqual({ type: 'track', event: 'SIWX_AUTH_ERROR', properties: { network: 'eip155:1', message: 'Signature declined' } })
  })

  it('cancel: required disconnects and shows Connect; optional closes and stays connected', async () => {
    const required = setup(memoryConfig({ required: true }).config)
    await connect(required)
    await vi.waitFor(() => expect(view(required)).toBe('SIWXSignMessage'))
    await cancelSiwx(required)
    expect(required.getState()).toMatchObject({ open: true, view: 'Connect', account: { status: 'disconnected' } })
    expect(getSiwxState(required)).toMatchObject({ status: 'signed-out', account: undefined })

    const optional = setup(memoryConfig().config)
    await connect(optional)
    await vi.waitFor(() => expect(view(optional)).toBe('SIWXSignMessage'))
    await cancelSiwx(optional)
    expect(optional.getState()).toMatchObject({ open: false, view: 'Connect', account: { status: 'connected' } })
  })

  it('an account with a session is signed in without the view; disconnecting signs out when signOutOnDisconnect', async () => {
    const stored = memoryConfig({ signOutOnDisconnect: true })
    const session: SIWXSession = { data: { accountAddress: alice, chainId: 'eip155:1', domain: 'app.example', uri: 'https://app.example', version: '1', nonce: 'n' }, message: 'm', signature: '0x' }
    stored.sessions.push(session)
    const latch = setup(stored.config)
    await connect(latch)
    await vi.waitFor(() => expect(getSiwxState(latch).status).toBe('signed-in'))
    expect(latch.getState().open).toBe(false)
    await latch.disconnect()
    await vi.waitFor(() => expect(stored.revoked).toEqual([`eip155:1:${alice}`]))
    expect(getSiwxState(latch)).toMatchObject({ status: 'signed-out', session: undefined })

    const kept = memoryConfig({ signOutOnDisconnect: false })
    kept.sessions.push(session)
    const other = setup(kept.config)
    await connect(other)
    await vi.waitFor(() => expect(getSiwxState(other).status).toBe('signed-in'))
    await other.disconnect()
    await vi.waitFor(() => expect(getSiwxState(other).status).toBe('signed-out'))
    expect(kept.revoked).toEqual([])
  })

  it('a session check that fails disconnects, resets to Connect and shows the spec’s error (spec §4)', async () => {
    const { config } = memoryConfig({ getSessions: async () => Promise.reject(new Error('session revoked')) })
    const latch = setup(config)
    await connect(latch)
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('disconnected'))
    await vi.waitFor(() => expect(latch.getState().toast).toMatchObject({ variant: 'error', message: 'A problem occurred while trying initialize authentication' }))
    expect(latch.getState()).toMatchObject({ open: true, view: 'Connect' })
    expect(getSiwxState(latch)).toMatchObject({ status: 'signed-out', error: 'A problem occurred while trying initialize authentication' })
  })

  it("a config's own signMessage signs instead of the wallet", async () => {
    const { config, sessions } = memoryConfig()
    const signMessage = vi.fn(async () => '0xsignedByTheApp')
    const latch = setup({ ...config, signMessage })
    const { sign } = await connect(latch)
    await vi.waitFor(() => expect(view(latch)).toBe('SIWXSignMessage'))
    await signIn(latch)
    expect(sign).not.toHaveBeenCalled()
    expect(signMessage).toHaveBeenCalledWith({ message: expect.stringContaining('app.example wants you to sign in'), accountAddress: alice, chainId: 'eip155:1' })
    expect(sessions[0]?.signature).toBe('0xsignedByTheApp')
  })

  it('signOut revokes the session; with sign-in required it disconnects too; without siwx the actions refuse', async () => {
    const stored = memoryConfig({ required: true })
    const latch = setup(stored.config)
    await connect(latch)
    await vi.waitFor(() => expect(view(latch)).toBe('SIWXSignMessage'))
    await signIn(latch)
    await signOut(latch)
    expect(stored.revoked).toEqual([`eip155:1:${alice}`])
    expect(latch.getState().account.status).toBe('disconnected')

    const plain = createLatch({ networks: [mainnet] })
    await expect(signIn(plain)).rejects.toThrow('SIWX is not enabled')
    expect(getSiwxState(plain).status).toBe('disabled')
  })
})

describe('latchSiwx', () => {
  const token = 'siwx_' + 'a'.repeat(40)

  function latchd() {
    const calls: { method: string; path: string; headers: Record<string, string>; body?: unknown }[] = []
    let sessionsStatus = 200
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const url = new URL(String(input))
      const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]))
      calls.push({ method: init?.method ?? 'GET', path: url.pathname, headers, ...(init?.body ? { body: JSON.parse(String(init.body)) } : {}) })
      expect(url.searchParams.get('projectId')).toBe('p1')
      switch (`${init?.method ?? 'GET'} ${url.pathname}`) {
        case 'GET /auth/v1/nonce':
          return json({ nonce: '0123456789abcdef01234567', token: 'nonce-token' })
        case 'POST /auth/v1/authenticate':
          return json({ token })
        case 'GET /auth/v1/siwx/sessions': {
          if (sessionsStatus !== 200) return json({ status: 'FAILED', reasons: [{ field: 'Authorization', description: 'session revoked' }] }, sessionsStatus)
          const data = { accountAddress: alice, chainId: 'eip155:1', domain: 'app.example', uri: 'https://app.example', version: '1', nonce: '0123456789abcdef01234567', issuedAt: '2026-01-01T00:00:00Z' }
          return json({ sessions: [{ id: 's1', data, message: 'm', signature: '0xsig', cacao: { h: { t: 'caip122' } }, createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-08T00:00:00Z', active: true }] })
        }
        case 'POST /auth/v1/sign-out':
          return json({})
      }
      return json({ status: 'FAILED', reasons: [{ description: 'no route' }] }, 404)
    })
    vi.stubGlobal('fetch', fetch)
    return { calls, revoke: () => (sessionsStatus = 401) }
  }

  it('creates the message with latchd’s nonce, authenticates with its token and keeps the session token per account', async () => {
    const { calls, revoke } = latchd()
    const storage = createMemoryStorage()
    const siwx = latchSiwx({ apiUrl: 'http://latchd.test', projectId: 'p1', storage, domain: 'app.example', uri: 'https://app.example', statement: 'Sign in', expiresIn: 60 })
    expect(siwx.getRequired()).toBe(false)
    expect(siwx.signOutOnDisconnect).toBe(true)
    const message = await siwx.createMessage({ accountAddress: alice, chainId: 'eip155:1' })
    expect(message).toMatchObject({ nonce: '0123456789abcdef01234567', domain: 'app.example', statement: 'Sign in', version: '1' })
    expect(Date.parse(message.expirationTime!) - Date.parse(message.issuedAt!)).toBe(60_000)

    await siwx.addSession({ data: message, message: message.toString(), signature: '0xsig' })
    expect(calls[1]).toMatchObject({
      method: 'POST',
      path: '/auth/v1/authenticate',
      headers: { 'x-nonce-jwt': 'Bearer nonce-token' },
      body: { message: message.toString(), signature: '0xsig', data: { chainId: 'eip155:1', accountAddress: alice } },
    })
    expect(JSON.parse(storage.getItem('latch:siwx:p1')!)).toEqual({ [`eip155:1:${alice.toLowerCase()}`]: token })
    // The nonce is spent: the same message cannot be added twice.
    await expect(siwx.addSession({ data: message, message: message.toString(), signature: '0xsig' })).rejects.toThrow('its nonce is unknown or already used')

    const [session] = await siwx.getSessions('eip155:1', alice)
    expect(session).toMatchObject({ signature: '0xsig', cacao: { h: { t: 'caip122' } } })
    expect(calls.at(-1)).toMatchObject({ path: '/auth/v1/siwx/sessions', headers: { authorization: `Bearer ${token}` } })
    expect(await siwx.getSessions('eip155:10', alice)).toEqual([])

    // Revoked on latchd: the check rejects and forgets the token.
    revoke()
    await expect(siwx.getSessions('eip155:1', alice)).rejects.toMatchObject({ name: 'SiwxRequestError', status: 401, reason: 'session revoked' })
    expect(storage.getItem('latch:siwx:p1')).toBeNull()
  })

  it('revokeSession signs out on latchd and forgets the token; without latchd it says what it needs', async () => {
    const { calls } = latchd()
    const storage = createMemoryStorage()
    storage.setItem('latch:siwx:p1', JSON.stringify({ [`eip155:1:${alice.toLowerCase()}`]: token }))
    const siwx = latchSiwx({ apiUrl: 'http://latchd.test', projectId: 'p1', storage, required: true, signOutOnDisconnect: false })
    expect(siwx.getRequired()).toBe(true)
    expect(siwx.signOutOnDisconnect).toBe(false)
    await siwx.revokeSession('eip155:1', alice)
    expect(calls).toMatchObject([{ method: 'POST', path: '/auth/v1/sign-out', headers: { authorization: `Bearer ${token}` } }])
    expect(storage.getItem('latch:siwx:p1')).toBeNull()

    await expect(latchSiwx().createMessage({ accountAddress: alice, chainId: 'eip155:1' })).rejects.toThrow('latchSiwx() needs latchd')
  })
})
