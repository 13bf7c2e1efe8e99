import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import { parseFrameEvent } from '../../core/src/embedded/protocol'
import { openDeviceStore } from './deviceStore'
import { createFrame } from './frame'
import { challengeOf, newVerifier, PendingLogins, stateOf } from './social'
import { fakeLatchd } from './testing/fakeLatchd'
import { NO_SOCIAL_LOGIN, SOCIAL_RETURN_URL } from './wallet'

const PAGE = 'https://app.example'

async function embed(server: ReturnType<typeof fakeLatchd>, store = openDeviceStore(new IDBFactory())) {
  const posted: { id?: string; type: string; payload?: unknown }[] = []
  const parent = {
    postMessage: (msg: (typeof posted)[number], origin: string) => {
      expect(origin).toBe(PAGE)
      expect(parseFrameEvent(msg)).toBeDefined()
      posted.push(msg)
    },
  } as unknown as Window
  const frame = await createFrame({
    api: server.api,
    store,
    projectId: 'p'.repeat(32),
    chainId: 'eip155:31337',
    parent,
    parentOrigin: PAGE,
    listen: () => undefined,
    reload: () => undefined,
    log: () => undefined,
    // Nothing here signs: a request shown would be refused.
    prompt: async () => false,
    wallet: { sleep: async () => undefined },
  })
  let n = 0
  const answerOf = (id: string) => posted.find((p) => p.id === id && /_(SUCCESS|ERROR)$/.test(p.type))
  const ask = async (type: string, payload?: unknown) => {
    const id = `s${++n}`
    await frame.handle({ data: { id, type: `@latch-app/${type}`, payload }, origin: PAGE, source: parent as unknown as MessageEventSource })
    await vi.waitFor(() => expect(answerOf(id)).toBeDefined())
    return answerOf(id)!
  }
  return { frame, posted, ask, parent, store }
}

// The result URI latchd's callback page hands the page for a started login.
const resultOf = (authorizeUri: string, code = 'code-1') => `https://frame.example/auth/v1/social/result?state=${stateOf(authorizeUri)}&code=${code}`

describe('social login in the frame', () => {
  it('starts with a PKCE challenge, connects with its verifier, and opens the same wallet as the e-mail login of a verified address', async () => {
    const server = fakeLatchd()
    const { ask } = await embed(server)
    const start = await ask('GET_SOCIAL_REDIRECT_URI', { provider: 'google' })
    expect(start.type).toBe('@latch-frame/GET_SOCIAL_REDIRECT_URI_SUCCESS')
    const uri = (start.payload as { uri: string }).uri
    const flow = server.socialFlows.get(stateOf(uri)!)!
    expect(flow.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const connect = await ask('CONNECT_SOCIAL', { uri: resultOf(uri), chainId: 'eip155:31337' })
    expect(connect).toMatchObject({ type: '@latch-frame/CONNECT_SOCIAL_SUCCESS', payload: { provider: 'google', userName: 'visitor', email: 'visitor@example.com' } })
    const user = (await ask('GET_USER', { chainId: 'eip155:31337' })).payload as { address: string; userName: string }
    expect(user.userName).toBe('visitor')

    await ask('SIGN_OUT')
    await ask('CONNECT_EMAIL', { email: 'visitor@example.com' })
    await ask('CONNECT_OTP', { otp: '123456' })
    const byEmail = (await ask('GET_USER', { chainId: 'eip155:31337' })).payload as { address: string; userName?: string }
    expect(byEmail.address).toBe(user.address)
    expect(byEmail.userName).toBeUndefined()
  })

  it('refuses a result it did not start, and a result used once, without asking latchd', async () => {
    const server = fakeLatchd()
    const { ask } = await embed(server)
    const stranger = await ask('CONNECT_SOCIAL', { uri: 'https://frame.example/auth/v1/social/result?state=made-up&code=x' })
    expect(stranger).toMatchObject({ type: '@latch-frame/CONNECT_SOCIAL_ERROR', payload: { message: NO_SOCIAL_LOGIN } })
    const uri = ((await ask('GET_SOCIAL_REDIRECT_URI', { provider: 'github' })).payload as { uri: string }).uri
    expect((await ask('CONNECT_SOCIAL', { uri: resultOf(uri) })).type).toBe('@latch-frame/CONNECT_SOCIAL_SUCCESS')
    expect(await ask('CONNECT_SOCIAL', { uri: resultOf(uri) })).toMatchObject({ payload: { message: NO_SOCIAL_LOGIN } })
    expect(server.calls.filter((c) => c === 'socialConnect')).toHaveLength(1)
  })

  it('passes latchd refusals on, and ignores an unknown provider', async () => {
    const server = fakeLatchd()
    const { ask, frame, posted, parent } = await embed(server)
    server.socialPerson.verified = false
    const uri = ((await ask('GET_SOCIAL_REDIRECT_URI', { provider: 'x' })).payload as { uri: string }).uri
    // Another device's frame (here: a tampered device) is refused by latchd with its message.
    server.socialFlows.get(stateOf(uri)!)!.deviceId = 'another-device-000000000'
    expect(await ask('CONNECT_SOCIAL', { uri: resultOf(uri) })).toMatchObject({ payload: { message: 'This social login was started on another device' } })
    const before = posted.length
    await frame.handle({ data: { id: 'bad1', type: '@latch-app/GET_SOCIAL_REDIRECT_URI', payload: { provider: 'myspace' } }, origin: PAGE, source: parent as unknown as MessageEventSource })
    expect(posted.length).toBe(before)
    expect(server.calls.filter((c) => c === 'socialStart')).toHaveLength(1)
  })
})

describe('PKCE', () => {
  it('makes 43-character verifiers and their RFC 7636 S256 challenge', async () => {
    const v = newVerifier()
    expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(newVerifier()).not.toBe(v)
    // RFC 7636 appendix B.
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  it('keeps the last five logins and spends each once', () => {
    const p = new PendingLogins()
    for (let i = 0; i < 7; i++) p.add(`s${i}`, `v${i}`)
    expect(p.take('s0')).toBeUndefined()
    expect(p.take('s1')).toBeUndefined()
    expect(p.take('s6')).toBe('v6')
    expect(p.take('s6')).toBeUndefined()
  })
})

describe('social login in redirect mode (a Telegram mini-app)', () => {
  it('keeps the verifier across the page reload: a new frame on the same device connects the result', async () => {
    const server = fakeLatchd()
    // The page before the redirect asks for a login's begin URL with its return URL.
    const before = await embed(server)
    const uri = ((await before.ask('GET_SOCIAL_REDIRECT_URI', { provider: 'google', returnUrl: `${PAGE}/tg/?x=1` })).payload as { uri: string }).uri
    // A popup login's verifier lives in that frame's memory only.
    const popupUri = ((await before.ask('GET_SOCIAL_REDIRECT_URI', { provider: 'google' })).payload as { uri: string }).uri
    // After the reload: a new frame over the same device store.
    const after = await embed(server, before.store)
    expect(await after.ask('CONNECT_SOCIAL', { uri: resultOf(popupUri) })).toMatchObject({ payload: { message: NO_SOCIAL_LOGIN } })
    expect(await after.ask('CONNECT_SOCIAL', { uri: resultOf(uri) })).toMatchObject({ type: '@latch-frame/CONNECT_SOCIAL_SUCCESS', payload: { provider: 'google' } })
    // Spent: the stored verifier is gone.
    const again = await embed(server, before.store)
    expect(await again.ask('CONNECT_SOCIAL', { uri: resultOf(uri) })).toMatchObject({ payload: { message: NO_SOCIAL_LOGIN } })
    // A return URL that is not a page of the embedding page's origin: the frame does not report it to latchd.
    const starts = server.calls.filter((c) => c === 'socialStart').length
    for (const bad of ['https://evil.example/', `https://user@${PAGE.slice('https://'.length)}/`, 'javascript:alert(1)', 'not a url']) {
      expect(await after.ask('GET_SOCIAL_REDIRECT_URI', { provider: 'google', returnUrl: bad })).toMatchObject({ type: '@latch-frame/GET_SOCIAL_REDIRECT_URI_ERROR', payload: { message: SOCIAL_RETURN_URL } })
    }
    expect(server.calls.filter((c) => c === 'socialStart')).toHaveLength(starts)
  })
})
