import { IDBFactory } from 'fake-indexeddb'
import { recoverMessageAddress, type Hex } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseFrameEvent } from '../../core/src/embedded/protocol'
import type { Appearance, ShownRequest } from './approval'
import { createAuthApi } from './authApi'
import { openDeviceStore } from './deviceStore'
import { createFrame, type FrameDeps } from './frame'
import { fakeLatchd } from './testing/fakeLatchd'

const PAGE = 'https://app.example'

interface Posted {
  msg: { id?: string; type: string; payload?: unknown }
  origin: string
}

// Every event the frame posts must be one the page's parser accepts: the page drops any other, and the request it
// answers would then wait forever (as UPDATE_EMAIL_PRIMARY_OTP's once did, with a payload the protocol does not have).
const malformed: unknown[] = []
afterEach(() => {
  expect(malformed.splice(0)).toEqual([])
})

// A frame embedded by a page at PAGE, on its own IndexedDB (one browser profile).
async function embed(server: ReturnType<typeof fakeLatchd>, over: Partial<FrameDeps> = {}) {
  const posted: Posted[] = []
  const parent = {
    postMessage: (msg: Posted['msg'], origin: string) => {
      if (!parseFrameEvent(msg)) malformed.push(msg)
      posted.push({ msg, origin })
    },
  } as unknown as Window
  let listener: ((ev: MessageEvent) => void) | undefined
  // The frame's approval view, played by the test: what it was shown, and the visitor's answer.
  const shown: { request: ShownRequest; answer: (ok: boolean) => void; signal: AbortSignal }[] = []
  const frame = await createFrame({
    api: server.api,
    store: openDeviceStore(new IDBFactory()),
    projectId: 'p'.repeat(32),
    chainId: 'eip155:31337',
    parent,
    parentOrigin: PAGE,
    listen: (fn) => (listener = fn),
    reload: () => undefined,
    log: () => undefined,
    wallet: { sleep: async () => undefined, scryptCost: { logN: 10, r: 8, p: 1 } },
    prompt: (request, signal) =>
      new Promise<boolean>((resolve, reject) => {
        shown.push({ request, answer: resolve, signal })
        signal.addEventListener('abort', () => reject(signal.reason))
      }),
    ...over,
  })
  let n = 0
  const answerOf = (id: string) => posted.find((p) => p.msg.id === id && /_(SUCCESS|ERROR)$/.test(p.msg.type))?.msg
  /** send posts an app event from the page and returns its id. */
  const send = (type: string, payload?: unknown, from: { origin?: string; source?: unknown } = {}) => {
    const id = `r${++n}`
    void frame.handle({ data: { id, type: `@latch-app/${type}`, payload }, origin: from.origin ?? PAGE, source: (from.source ?? parent) as MessageEventSource })
    return id
  }
  /** ask sends and waits for the answer (the first GET_USER loads and runs the key code: slow on a busy machine). */
  const ask = async (type: string, payload?: unknown) => {
    const id = send(type, payload)
    await vi.waitFor(() => expect(answerOf(id)).toBeDefined(), { timeout: 5000 })
    return answerOf(id)!
  }
  const login = async (email = 'visitor@example.com') => {
    const start = await ask('CONNECT_EMAIL', { email })
    if ((start.payload as { action: string }).action === 'VERIFY_DEVICE') {
      expect((await ask('CONNECT_DEVICE')).type).toBe('@latch-frame/CONNECT_DEVICE_SUCCESS')
    }
    expect((await ask('CONNECT_OTP', { otp: '123456' })).type).toBe('@latch-frame/CONNECT_OTP_SUCCESS')
  }
  /** visitor answers the last request shown, as the visitor does in the frame's view. */
  const visitor = async (approved: boolean) => {
    await vi.waitFor(() => expect(shown.some((x) => !x.signal.aborted)).toBe(true))
    shown.at(-1)!.answer(approved)
  }
  return { frame, posted, parent, listener, send, ask, answerOf, login, shown, visitor }
}

describe('createFrame', () => {
  it('stays silent for a page on an origin the project does not allow', async () => {
    const server = fakeLatchd()
    const posted: unknown[] = []
    let listened = false
    await expect(
      embed(server, { parentOrigin: 'https://evil.example', parent: { postMessage: (m: unknown) => void posted.push(m) } as unknown as Window, listen: () => (listened = true) }),
    ).rejects.toThrow('Origin not allowed')
    expect(posted).toEqual([])
    expect(listened).toBe(false)
  })

  it('announces READY to its parent, addressed to the parent origin only', async () => {
    const { posted, listener } = await embed(fakeLatchd())
    expect(listener).toBeTypeOf('function')
    expect(posted).toEqual([{ msg: { type: '@latch-frame/READY', payload: { version: '1' } }, origin: PAGE }])
  })

  it('ignores messages from another origin or window, and malformed or unknown events', async () => {
    const server = fakeLatchd()
    const { posted, send } = await embed(server)
    send('GET_CHAIN_ID', undefined, { origin: 'https://evil.example' })
    send('GET_CHAIN_ID', undefined, { source: {} })
    send('CONNECT_EMAIL', { email: 'not-an-email' })
    send('EXPORT_SEED')
    await new Promise((r) => setTimeout(r, 20))
    expect(posted).toHaveLength(1) // READY only
    expect(server.calls).toEqual(['origins'])
  })

  it("logs in by e-mail (device approval, then code), creates the wallet and signs after the visitor's approval in the frame", async () => {
    const server = fakeLatchd({ approveAfterPolls: 3 })
    const { ask, send, posted, answerOf, login, shown, visitor } = await embed(server)
    await login()
    expect(server.calls.filter((c) => c === 'deviceStatus')).toHaveLength(3)

    const user = await ask('GET_USER', { chainId: 'eip155:31337' })
    expect(user.type).toBe('@latch-frame/GET_USER_SUCCESS')
    const u = user.payload as { address: Hex; email: string; accounts: unknown[]; solanaAddress: string }
    expect(u.email).toBe('visitor@example.com')
    expect(u.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(u.solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    const stored = [...server.users.values()][0]!.shares!
    expect(stored.recovery.mode).toBe('operator')

    // Local answers and proxied reads.
    expect((await ask('RPC_REQUEST', { method: 'eth_chainId', chainNamespace: 'eip155', chainId: 'eip155:31337' })).payload).toBe('0x7a69')
    expect((await ask('RPC_REQUEST', { method: 'eth_accounts', chainNamespace: 'eip155', chainId: 31337 })).payload).toEqual([u.address])
    expect((await ask('RPC_REQUEST', { method: 'eth_blockNumber', params: [], chainNamespace: 'eip155', chainId: 31337 })).payload).toBe('0x2a')
    expect(server.rpcCalls.at(-1)).toMatchObject({ network: 'eip155:31337', method: 'eth_blockNumber' })

    // personal_sign: the frame shows it (the page learns only which request waits), signs after the visitor's Approve.
    const id = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', u.address], chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(posted.some((p) => p.msg.type === '@latch-frame/RPC_APPROVAL_REQUIRED')).toBe(true))
    const approval = posted.find((p) => p.msg.type === '@latch-frame/RPC_APPROVAL_REQUIRED')!.msg
    expect(approval.payload).toEqual({ requestId: id, method: 'personal_sign', chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    expect(shown[0]!.request).toEqual({ requestId: id, method: 'personal_sign', params: ['0x68656c6c6f', u.address], chainNamespace: 'eip155', chainId: 31337 })
    expect(answerOf(id)).toBeUndefined()
    await visitor(true)
    await vi.waitFor(() => expect(answerOf(id)).toBeDefined())
    const sig = answerOf(id)!.payload as Hex
    expect(await recoverMessageAddress({ message: 'hello', signature: sig })).toBe(u.address)

    // Declined: the spec's message and code 4001.
    const declined = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x00', u.address], chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(shown).toHaveLength(2))
    await visitor(false)
    await vi.waitFor(() => expect(answerOf(declined)).toEqual({ id: declined, type: '@latch-frame/RPC_REQUEST_ERROR', payload: { message: 'Signature declined', code: 4001 } }))

    // Aborted while waiting: the view is told (its signal), the request fails.
    const aborted = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x00', u.address], chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(shown).toHaveLength(3))
    await ask('RPC_ABORT')
    await vi.waitFor(() => expect(answerOf(aborted)?.payload).toEqual({ message: 'Request was aborted' }))
    expect(shown[2]!.signal.aborted).toBe(true)

    // Refused methods.
    for (const method of ['eth_sign', 'wallet_sendCalls', 'eth_signTransaction']) {
      expect((await ask('RPC_REQUEST', { method, params: [], chainNamespace: 'eip155', chainId: 31337 })).payload).toEqual({
        message: 'Requested RPC call is not allowed',
        code: 4200,
      })
    }
  })

  it("refuses the page's RPC_APPROVE: an error answer, the request still waits for the visitor, nothing is signed", async () => {
    const server = fakeLatchd()
    const { ask, send, answerOf, login, shown, posted, visitor } = await embed(server)
    await login()
    const u = (await ask('GET_USER')).payload as { address: Hex }
    const id = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', u.address], chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    for (const payload of [{ requestId: id, approved: true }, { requestId: id }, undefined]) {
      const refused = await ask('RPC_APPROVE', payload)
      expect(refused).toEqual({ id: expect.any(String), type: '@latch-frame/RPC_APPROVE_ERROR', payload: { message: 'Only the visitor approves, in the wallet frame', code: 4200 } })
    }
    await new Promise((r) => setTimeout(r, 20))
    expect(answerOf(id)).toBeUndefined()
    expect(posted.filter((p) => p.msg.type === '@latch-frame/RPC_REQUEST_SUCCESS')).toHaveLength(0)
    expect(shown[0]!.signal.aborted).toBe(false)
    // The visitor's answer still decides.
    await visitor(false)
    await vi.waitFor(() => expect(answerOf(id)?.type).toBe('@latch-frame/RPC_REQUEST_ERROR'))
  })

  it('shows one request at a time, in order; a request nobody answers fails after the timeout (code 4001)', async () => {
    const server = fakeLatchd()
    const { ask, send, answerOf, login, shown } = await embed(server, { approvalTimeoutMs: 200 })
    await login()
    const u = (await ask('GET_USER')).payload as { address: Hex }
    const a = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x01', u.address], chainNamespace: 'eip155', chainId: 31337 })
    const b = send('RPC_REQUEST', { method: 'personal_sign', params: ['0x02', u.address], chainNamespace: 'eip155', chainId: 31337 })
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    expect(shown[0]!.request.requestId).toBe(a)
    shown[0]!.answer(true)
    await vi.waitFor(() => expect(answerOf(a)?.type).toBe('@latch-frame/RPC_REQUEST_SUCCESS'))
    await vi.waitFor(() => expect(shown).toHaveLength(2))
    expect(shown[1]!.request.requestId).toBe(b)
    await vi.waitFor(() => expect(answerOf(b)).toEqual({ id: b, type: '@latch-frame/RPC_REQUEST_ERROR', payload: { message: 'Approval timed out', code: 4001 } }), { timeout: 2000 })
    expect(shown[1]!.signal.aborted).toBe(true)
  })

  it("takes the page's theme and locale for the approval view, keeping only what cannot hide the request", async () => {
    const seen: Appearance[] = []
    const { ask } = await embed(fakeLatchd(), { setAppearance: (a) => seen.push(a) })
    await ask('SYNC_THEME', { themeMode: 'dark', themeVariables: { '--latch-accent': '#ff0000', '--latch-border-radius-master': '4px', '--latch-color-fg': '#ffffff' }, locale: 'de' })
    await ask('SYNC_THEME', { themeMode: 'light', themeVariables: { '--latch-accent': 'transparent', '--latch-border-radius-master': '99px' } })
    expect(seen).toEqual([
      { mode: 'dark', accent: '#ff0000', radius: 8, locale: 'de' },
      { mode: 'light', accent: undefined, radius: undefined, locale: undefined },
    ])
  })

  it('rebuilds the same wallet on a new device from the auth and recovery shares; the first device still signs', async () => {
    const server = fakeLatchd()
    const one = await embed(server)
    await one.login()
    const first = (await one.ask('GET_USER')).payload as { address: Hex }

    const two = await embed(server) // another browser profile: empty IndexedDB
    await two.login()
    const second = (await two.ask('GET_USER')).payload as { address: Hex }
    expect(second.address).toBe(first.address)
    expect(server.calls).toContain('fetchShares+recovery')

    for (const f of [one, two]) {
      const id = f.send('RPC_REQUEST', { method: 'personal_sign', params: ['0x01', first.address], chainNamespace: 'eip155', chainId: 1 })
      await vi.waitFor(() => expect(f.posted.some((p) => p.msg.type === '@latch-frame/RPC_APPROVAL_REQUIRED')).toBe(true))
      await f.visitor(true)
      await vi.waitFor(() => expect(f.answerOf(id)?.type).toBe('@latch-frame/RPC_REQUEST_SUCCESS'))
      expect(await recoverMessageAddress({ message: { raw: '0x01' }, signature: f.answerOf(id)!.payload as Hex })).toBe(first.address)
    }
  })

  it('password recovery: latchd gets only ciphertext; a new device needs the right password', async () => {
    const server = fakeLatchd()
    const one = await embed(server)
    await one.login()
    const first = (await one.ask('GET_USER', { recoveryPassword: 'correct horse battery' })).payload as { address: string }
    const rec = [...server.users.values()][0]!.shares!.recovery
    expect(rec.mode).toBe('password')
    expect(JSON.stringify(rec)).not.toContain('correct horse')

    const two = await embed(server)
    await two.login()
    expect((await two.ask('GET_USER')).payload).toEqual({ message: 'Recovery password required' })
    expect((await two.ask('GET_USER', { recoveryPassword: 'wrong horse battery' })).payload).toEqual({ message: 'Wrong recovery password' })
    expect(((await two.ask('GET_USER', { recoveryPassword: 'correct horse battery' })).payload as { address: string }).address).toBe(first.address)
  })

  it('signs out: the session ends here and on latchd; the device share stays for the next login', async () => {
    const server = fakeLatchd()
    const f = await embed(server)
    await f.login()
    const before = ((await f.ask('GET_USER')).payload as { address: string }).address
    expect((await f.ask('IS_CONNECTED')).payload).toEqual({ isConnected: true })
    expect((await f.ask('SIGN_OUT')).type).toBe('@latch-frame/SIGN_OUT_SUCCESS')
    expect(server.calls).toContain('revoke')
    expect((await f.ask('IS_CONNECTED')).payload).toEqual({ isConnected: false })
    expect((await f.ask('GET_USER')).payload).toEqual({ message: 'Session expired' })
    const calls = server.calls.length
    await f.login()
    expect(((await f.ask('GET_USER')).payload as { address: string }).address).toBe(before)
    expect(server.calls.slice(calls)).not.toContain('fetchShares+recovery')
  })

  it('stops polling the device status when the page gives up the wait (RPC_ABORT)', async () => {
    const server = fakeLatchd({ approveAfterPolls: Number.MAX_SAFE_INTEGER })
    // A sleep that ends early when its signal aborts, as the real one does.
    const sleep = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('aborted'))
        setTimeout(resolve, 2)
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
      })
    const f = await embed(server, { wallet: { sleep, scryptCost: { logN: 10, r: 8, p: 1 } } })
    expect(((await f.ask('CONNECT_EMAIL', { email: 'a@b.co' })).payload as { action: string }).action).toBe('VERIFY_DEVICE')
    const wait = f.send('CONNECT_DEVICE')
    const polls = () => server.calls.filter((c) => c === 'deviceStatus').length
    await vi.waitFor(() => expect(polls()).toBeGreaterThan(2))
    expect((await f.ask('RPC_ABORT')).type).toBe('@latch-frame/RPC_ABORT_SUCCESS')
    await vi.waitFor(() => expect(f.answerOf(wait)?.type).toBe('@latch-frame/CONNECT_DEVICE_ERROR'))
    const after = polls()
    await new Promise((r) => setTimeout(r, 30))
    expect(polls()).toBe(after)
  })

  it('changes the e-mail: UPDATE_EMAIL asks for the current address code, whose SUCCESS has no payload; a wrong second code is refused', async () => {
    const f = await embed(fakeLatchd())
    await f.login()
    expect((await f.ask('UPDATE_EMAIL', { email: 'new@example.com' })).payload).toEqual({ action: 'VERIFY_PRIMARY_OTP' })
    const primary = await f.ask('UPDATE_EMAIL_PRIMARY_OTP', { otp: '123456' })
    expect(primary).toEqual({ id: expect.any(String), type: '@latch-frame/UPDATE_EMAIL_PRIMARY_OTP_SUCCESS', payload: undefined })
    expect((await f.ask('UPDATE_EMAIL_SECONDARY_OTP', { otp: '000000' })).payload).toEqual({ message: 'Invalid or expired code' })
  })

  it("sends the page's locale with the requests that mail (CONNECT_EMAIL, UPDATE_EMAIL, UPDATE_EMAIL_PRIMARY_OTP); a malformed one is ignored", async () => {
    const server = fakeLatchd()
    const emailStart = vi.spyOn(server.api, 'emailStart')
    const changeEmail = vi.spyOn(server.api, 'changeEmail')
    const changeEmailPrimary = vi.spyOn(server.api, 'changeEmailPrimary')
    const f = await embed(server)
    // Like any malformed event, one with a locale that is not a language tag is ignored.
    const bad = f.send('CONNECT_EMAIL', { email: 'a@b.co', locale: 'x<script>' })
    await new Promise((r) => setTimeout(r, 20))
    expect(f.answerOf(bad)).toBeUndefined()
    expect(emailStart).not.toHaveBeenCalled()
    await f.ask('CONNECT_EMAIL', { email: 'a@b.co', locale: 'de' })
    expect(emailStart).toHaveBeenLastCalledWith('a@b.co', expect.any(String), undefined, 'de')
    await f.ask('CONNECT_DEVICE')
    await f.ask('CONNECT_OTP', { otp: '123456' })
    await f.ask('UPDATE_EMAIL', { email: 'new@example.com', locale: 'pt-BR' })
    expect(changeEmail).toHaveBeenLastCalledWith(expect.any(String), 'new@example.com', 'pt-BR')
    await f.ask('UPDATE_EMAIL_PRIMARY_OTP', { otp: '123456', locale: 'zh-TW' })
    expect(changeEmailPrimary).toHaveBeenLastCalledWith(expect.any(String), '123456', 'zh-TW')
  }, 20_000)

  it('puts the locale in the body of the e-mail requests only when the page sent one', async () => {
    const bodies: unknown[] = []
    const api = createAuthApi({
      apiUrl: 'https://latchd.test',
      projectId: 'p'.repeat(32),
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)))
        return new Response(JSON.stringify({ action: 'VERIFY_OTP' }), { status: 200 })
      },
    })
    await api.emailStart('a@b.co', 'd', undefined, 'ar')
    await api.emailStart('a@b.co', 'd')
    expect(bodies).toEqual([{ email: 'a@b.co', deviceId: 'd', locale: 'ar' }, { email: 'a@b.co', deviceId: 'd' }])
  })

  it('posts a signed name registration with the session (latchd requires it, spec §5); signed out, nothing is posted', async () => {
    const server = fakeLatchd()
    const f = await embed(server)
    const registration = { coinType: 0x80007a69, address: '0x' + '12'.repeat(20), message: '{"name":"alice.latch.test","attributes":{},"timestamp":1}', signature: '0x' + 'ab'.repeat(65) }
    expect((await f.ask('REGISTER_NAME', registration)).payload).toEqual({ message: 'Session expired' })
    expect(server.registrations).toEqual([])
    await f.login()
    const answer = await f.ask('REGISTER_NAME', registration)
    expect(answer.type).toBe('@latch-frame/REGISTER_NAME_SUCCESS')
    expect((answer.payload as { name: string }).name).toBe('alice.latch.test')
    expect(server.registrations).toEqual([{ userId: [...server.users.values()][0]!.id, ...registration }])
    // A malformed registration is not a valid app event: ignored.
    f.send('REGISTER_NAME', { ...registration, address: 'alice' })
    expect(server.calls.filter((c) => c === 'registerName')).toHaveLength(1)
  })

  it('sends the registration to POST /v1/profile/account as AppKit shapes it, with the session as bearer', async () => {
    const sent: { url: string; init?: RequestInit }[] = []
    const api = createAuthApi({
      apiUrl: 'https://latchd.test',
      projectId: 'p'.repeat(32),
      fetch: async (url, init) => {
        sent.push({ url: String(url), init })
        return new Response(JSON.stringify({ name: 'alice.latch.test', addresses: {} }), { status: 200 })
      },
    })
    await api.registerName('tok', { coinType: 60, address: '0xa', message: '{}', signature: '0xb' })
    expect(sent[0]?.url).toBe(`https://latchd.test/v1/profile/account?projectId=${'p'.repeat(32)}`)
    expect(sent[0]?.init?.method).toBe('POST')
    expect((sent[0]?.init?.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({ coin_type: 60, address: '0xa', message: '{}', signature: '0xb' })
  })

  it('answers a wrong code with latchd message', async () => {
    const f = await embed(fakeLatchd())
    await f.ask('CONNECT_EMAIL', { email: 'a@b.co' })
    await f.ask('CONNECT_DEVICE')
    expect((await f.ask('CONNECT_OTP', { otp: '000000' })).payload).toEqual({ message: 'Invalid or expired code' })
  })
})

describe('sessions', () => {
  it('refreshes an access token near its expiry, and ends the session when the refresh is refused', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z')
    const server = fakeLatchd({ accessTokenTTL: 15 * 60_000, now: () => t })
    const f = await embed(server, { wallet: { now: () => t, sleep: async () => undefined, scryptCost: { logN: 10, r: 8, p: 1 } } })
    await f.login()
    const address = ((await f.ask('GET_USER')).payload as { address: string }).address
    t += 14 * 60_000 + 31_000 // within 30 s of the expiry
    expect((await f.ask('IS_CONNECTED')).payload).toEqual({ isConnected: true })
    expect(server.calls.filter((c) => c === 'refresh')).toHaveLength(1)
    expect(((await f.ask('GET_USER')).payload as { address: string }).address).toBe(address)
    // latchd forgets the session (revoked elsewhere): the refresh fails and the frame is signed out.
    server.sessions.clear()
    t += 15 * 60_000
    expect((await f.ask('IS_CONNECTED')).payload).toEqual({ isConnected: false })
    expect((await f.ask('GET_USER')).payload).toEqual({ message: 'Session expired' })
  })

  it('recovers the wallet another device stored first instead of failing on the conflict', async () => {
    const server = fakeLatchd()
    const one = await embed(server)
    const two = await embed(server)
    await one.login()
    await two.login()
    // Both see no shares yet; the first to store wins, the second must end with the same wallet.
    const [a, b] = await Promise.all([one.ask('GET_USER'), two.ask('GET_USER')])
    expect((a.payload as { address: string }).address).toBe((b.payload as { address: string }).address)
  })
})
