// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage } from '../storage'
import {
  createFrameClient,
  FRAME_LOAD_FAILED_MESSAGE,
  REQUEST_ABORTED_MESSAGE,
  RPC_ABORTED_MESSAGE,
  DEVICE_APPROVAL_EXPIRED_MESSAGE,
  type FrameClientOptions,
} from './frameClient'
import { EMBEDDED_STORAGE_KEYS } from './storageKeys'

const FRAME = 'http://frame.test:8081'

interface Sent {
  id: string
  type: string
  payload?: unknown
}

// A page with a client; the iframe's window records what the page posts, and
// frame() posts as the frame would.
function setup(extra: Partial<FrameClientOptions> = {}) {
  const storage = createMemoryStorage()
  const timeouts: string[] = []
  const approvals: unknown[] = []
  const client = createFrameClient({
    frameUrl: FRAME,
    projectId: 'p'.repeat(32),
    chainId: 'eip155:1',
    storage,
    onTimeout: (r) => timeouts.push(r),
    onApprovalRequest: (r) => approvals.push(r),
    ...extra,
  })
  const sent: Sent[] = []
  let iframe: HTMLIFrameElement | undefined
  const spy = () => {
    iframe = document.querySelector('iframe') ?? undefined
    if (!iframe?.contentWindow) throw new Error('no iframe')
    vi.spyOn(iframe.contentWindow, 'postMessage').mockImplementation(((msg: Sent, origin: string) => {
      expect(origin).toBe(FRAME)
      sent.push(msg)
    }) as Window['postMessage'])
  }
  const frame = (data: unknown, init: { origin?: string; source?: MessageEventSource | null } = {}) =>
    window.dispatchEvent(new MessageEvent('message', { data, origin: init.origin ?? FRAME, source: init.source === undefined ? iframe!.contentWindow : init.source }))
  const ready = () => frame({ type: '@latch-frame/READY', payload: { version: '1' } })
  const last = () => sent[sent.length - 1]!
  return { client, storage, timeouts, approvals, sent, spy, frame, ready, last }
}

// Lets queued promise callbacks run (the client awaits READY before posting).
const flush = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  vi.useRealTimers()
  document.body.innerHTML = ''
})

describe('createFrameClient', () => {
  it('creates the hidden iframe with its own id and name and the spec §2 address', () => {
    const { client } = setup()
    expect(client.status()).toBe('idle')
    expect(document.querySelector('iframe')).toBeNull()
    client.start()
    const el = document.querySelector('iframe')!
    expect(el.id).toBe('latch-frame')
    expect(el.name).toBe('latch-frame')
    expect(el.style.display).toBe('none')
    expect(el.style.position).toBe('fixed')
    expect(Number(el.style.zIndex)).toBeGreaterThan(999999)
    const url = new URL(el.src)
    expect(url.origin).toBe(FRAME)
    expect([...url.searchParams.keys()]).toEqual(['projectId', 'chainId', 'version', 'enableLogger'])
    expect(url.searchParams.get('chainId')).toBe('eip155:1')
    expect(url.searchParams.get('enableLogger')).toBe('false')
    expect(client.status()).toBe('loading')
    // A second client gets its own id.
    setup().client.start()
    expect(document.querySelectorAll('iframe')[1]!.id).toBe('latch-frame-2')
  })

  it('is ready on READY and initialised 500 ms later', async () => {
    const { client, spy, ready } = setup()
    const seen: string[] = []
    client.subscribe((s) => seen.push(s))
    client.start()
    spy()
    ready()
    expect(client.status()).toBe('ready')
    await vi.advanceTimersByTimeAsync(499)
    expect(client.status()).toBe('ready')
    await vi.advanceTimersByTimeAsync(1)
    expect(client.status()).toBe('initialised')
    expect(seen).toEqual(['loading', 'ready', 'initialised'])
  })

  it('sends requests after READY and resolves them by id', async () => {
    const { client, spy, ready, sent, frame, last } = setup()
    client.start()
    spy()
    const p = client.request('GET_CHAIN_ID')
    await flush()
    expect(sent).toHaveLength(0)
    ready()
    await flush()
    expect(last().type).toBe('@latch-app/GET_CHAIN_ID')
    // An answer with another id, or the right id with another event's type, is not this request's.
    frame({ id: 'other', type: '@latch-frame/GET_CHAIN_ID_SUCCESS', payload: { chainId: 5 } })
    frame({ id: last().id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: true } })
    frame({ id: last().id, type: '@latch-frame/GET_CHAIN_ID_SUCCESS', payload: { chainId: 'eip155:1' } })
    await expect(p).resolves.toEqual({ chainId: 'eip155:1' })
  })

  it('rejects with the frame error message, or "An error occurred" without one', async () => {
    const { client, spy, ready, frame, last } = setup()
    client.start()
    spy()
    ready()
    const a = client.request('CONNECT_OTP', { otp: '123456' })
    await flush()
    frame({ id: last().id, type: '@latch-frame/CONNECT_OTP_ERROR', payload: { message: 'Invalid or expired code' } })
    await expect(a).rejects.toThrow('Invalid or expired code')
    const b = client.request('GET_USER')
    await flush()
    frame({ id: last().id, type: '@latch-frame/GET_USER_ERROR' })
    await expect(b).rejects.toThrow('An error occurred')
  })

  it('ignores events from another origin, another window, or that are malformed or forged', async () => {
    const { client, spy, ready, frame, last } = setup()
    client.start()
    spy()
    ready()
    const p = client.request('IS_CONNECTED')
    let settled = false
    p.then(() => (settled = true), () => (settled = true))
    await flush()
    const id = last().id
    frame({ id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: true } }, { origin: 'http://evil.test' })
    frame({ id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: true } }, { source: window })
    frame({ id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: 'yes' } })
    frame({ id, type: '@latch-frame/IS_CONNECTED_SUCCESS_FORGED', payload: { isConnected: true } })
    frame({ id, type: '@latch-app/IS_CONNECTED', payload: undefined })
    frame('not an object')
    await flush()
    expect(settled).toBe(false)
    frame({ id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: true } })
    await expect(p).resolves.toEqual({ isConnected: true })
  })

  it('fails loading after 20 s: IFRAME_LOAD_FAILED, waiting requests rejected', async () => {
    const { client, timeouts } = setup()
    const p = client.request('GET_USER')
    const caught = p.catch((e: Error) => e)
    await vi.advanceTimersByTimeAsync(19_999)
    expect(timeouts).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(timeouts).toEqual(['iframe_load_failed'])
    expect((await caught as Error).message).toBe(FRAME_LOAD_FAILED_MESSAGE)
    expect(client.status()).toBe('failed')
  })

  it('does not time out loading for theme and dapp data syncs', async () => {
    const { client, timeouts } = setup()
    void client.request('SYNC_THEME', { themeMode: 'dark' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(timeouts).toEqual([])
  })

  it('times out a connect call after 30 s (IFRAME_REQUEST_TIMEOUT) and aborts what is open except safe RPC requests', async () => {
    const { client, spy, ready, timeouts, frame, sent } = setup()
    client.start()
    spy()
    ready()
    const connect = client.request('CONNECT_OTP', { otp: '123456' }).catch((e: Error) => e)
    const read = client.request('RPC_REQUEST', { method: 'eth_blockNumber', params: [], chainNamespace: 'eip155', chainId: 1 })
    const sign = client.request('RPC_REQUEST', { method: 'personal_sign', params: ['0x00', '0x0'], chainNamespace: 'eip155', chainId: 1 }).catch((e: Error) => e)
    const user = client.request('GET_USER').catch((e: Error) => e)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(timeouts).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(timeouts).toEqual(['iframe_request_timeout'])
    expect(((await connect) as Error).message).toBe(REQUEST_ABORTED_MESSAGE)
    expect(((await sign) as Error).message).toBe(RPC_ABORTED_MESSAGE)
    expect(((await user) as Error).message).toBe(REQUEST_ABORTED_MESSAGE)
    // The safe read survived and still gets its answer.
    const readId = sent.find((s) => (s.payload as { method?: string })?.method === 'eth_blockNumber')!.id
    frame({ id: readId, type: '@latch-frame/RPC_REQUEST_SUCCESS', payload: '0x10' })
    await expect(read).resolves.toBe('0x10')
  })

  it('waits for the device approval past 30 s without the timeout alert, until the link is used', async () => {
    const { client, spy, ready, timeouts, frame, sent } = setup()
    client.start()
    spy()
    ready()
    let settled = false
    const device = client.waitForDeviceApproval()
    device.then(() => (settled = true), () => (settled = true))
    const user = client.request('GET_USER')
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(timeouts).toEqual([])
    expect(settled).toBe(false)
    const deviceId = sent.find((s) => s.type === '@latch-app/CONNECT_DEVICE')!.id
    frame({ id: deviceId, type: '@latch-frame/CONNECT_DEVICE_SUCCESS' })
    await expect(device).resolves.toBeUndefined()
    // Nothing else was aborted meanwhile.
    const userId = sent.find((s) => s.type === '@latch-app/GET_USER')!.id
    frame({ id: userId, type: '@latch-frame/GET_USER_SUCCESS', payload: { address: '0x01', chainId: 1, accounts: [] } })
    await expect(user).resolves.toMatchObject({ address: '0x01' })
  })

  it('gives up the device approval at the link expiry (10 min) with the expiry message, and when the visitor leaves', async () => {
    const { client, spy, ready, timeouts, frame, sent } = setup()
    client.start()
    spy()
    ready()
    const device = client.request('CONNECT_DEVICE').catch((e: Error) => e)
    await vi.advanceTimersByTimeAsync(10 * 60_000 - 1)
    await vi.advanceTimersByTimeAsync(1)
    expect(((await device) as Error).message).toBe(DEVICE_APPROVAL_EXPIRED_MESSAGE)
    expect(timeouts).toEqual([])

    const leave = new AbortController()
    const again = client.waitForDeviceApproval(leave.signal).catch((e: Error) => e)
    await flush()
    const waiting = sent[sent.length - 1]!
    expect(waiting.type).toBe('@latch-app/CONNECT_DEVICE')
    leave.abort()
    expect(((await again) as Error).message).toBe(REQUEST_ABORTED_MESSAGE)
    // The frame is told to stop polling latchd for the approval.
    await flush()
    expect(sent[sent.length - 1]!.type).toBe('@latch-app/RPC_ABORT')
    // A late answer is ignored; a wait with an aborted signal sends nothing.
    frame({ id: waiting.id, type: '@latch-frame/CONNECT_DEVICE_SUCCESS' })
    const count = sent.length
    await expect(client.waitForDeviceApproval(leave.signal)).rejects.toThrow(REQUEST_ABORTED_MESSAGE)
    expect(sent.length).toBe(count)
    expect(timeouts).toEqual([])
  })

  it('a connect call answered in time clears its timer', async () => {
    const { client, spy, ready, timeouts, frame, last } = setup()
    client.start()
    spy()
    ready()
    const p = client.request('CONNECT_EMAIL', { email: 'a@b.co' })
    await flush()
    frame({ id: last().id, type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'VERIFY_OTP' } })
    await expect(p).resolves.toEqual({ action: 'VERIFY_OTP' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(timeouts).toEqual([])
  })

  it('abort() keeps safe requests, rejects the rest and tells the frame', async () => {
    const { client, spy, ready, sent } = setup()
    client.start()
    spy()
    ready()
    const read = client.request('RPC_REQUEST', { method: 'eth_call', params: [], chainNamespace: 'eip155', chainId: 1 })
    let readSettled = false
    read.then(() => (readSettled = true), () => (readSettled = true))
    const sign = client.request('RPC_REQUEST', { method: 'eth_sendTransaction', params: [], chainNamespace: 'eip155', chainId: 1 }).catch((e: Error) => e)
    await flush()
    client.abort()
    expect(((await sign) as Error).message).toBe(RPC_ABORTED_MESSAGE)
    await flush()
    expect(readSettled).toBe(false)
    expect(sent.map((s) => s.type)).toContain('@latch-app/RPC_ABORT')
  })

  it('relays approval requests for its own open RPC requests only, and tells when each ends; it has no way to approve', async () => {
    const ended: string[] = []
    const { client, spy, ready, frame, last, approvals, sent } = setup({ onApprovalEnd: (id) => ended.push(id) })
    expect('approve' in client).toBe(false)
    client.start()
    spy()
    ready()
    const p = client.request('RPC_REQUEST', { method: 'personal_sign', params: ['0x68656c6c6f', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], chainNamespace: 'eip155', chainId: 1 })
    await flush()
    const id = last().id
    const request = { requestId: id, method: 'personal_sign', chainNamespace: 'eip155', chainId: 1 }
    frame({ id: 'zzz', type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: { ...request, requestId: 'zzz' } })
    expect(approvals).toEqual([])
    frame({ id, type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: request })
    frame({ id, type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: request })
    expect(approvals).toEqual([request])
    // The visitor answers in the frame: the page sends nothing, and learns the result.
    const count = sent.length
    frame({ id, type: '@latch-frame/RPC_REQUEST_SUCCESS', payload: '0xsig' })
    await expect(p).resolves.toBe('0xsig')
    expect(sent.length).toBe(count)
    expect(ended).toEqual([id])
    // Aborted by the page (the visitor closed the modal): it ends too.
    const q = client.request('RPC_REQUEST', { method: 'personal_sign', params: ['0x00', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], chainNamespace: 'eip155', chainId: 1 }).catch((e: Error) => e)
    await flush()
    const second = last().id
    frame({ id: second, type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: { ...request, requestId: second } })
    client.abort()
    expect(((await q) as Error).message).toBe(RPC_ABORTED_MESSAGE)
    expect(ended).toEqual([id, second])
  })

  it('shows the frame at a spot of the page and hides it again (place)', () => {
    const { client } = setup()
    client.place({ top: 1, left: 2, width: 3, height: 4 }) // no frame yet: nothing to place
    client.start()
    const el = document.querySelector('iframe')!
    client.place({ top: 10, left: 20, width: 360, height: 440 })
    expect(el.style).toMatchObject({ display: 'block', top: '10px', left: '20px', width: '360px', height: '440px' })
    expect(el.hasAttribute('aria-hidden')).toBe(false)
    client.place(undefined)
    expect(el.style.display).toBe('none')
    expect(el.getAttribute('aria-hidden')).toBe('true')
  })

  it("sends the widget's theme and locale once the frame is ready, and again on syncAppearance", async () => {
    let locale = 'de'
    const { client, spy, ready, sent } = setup({ appearance: () => ({ themeMode: 'dark', themeVariables: { '--latch-accent': '#ff0000' }, locale }) })
    client.syncAppearance() // not loaded: nothing
    client.start()
    spy()
    ready()
    await flush()
    expect(sent.filter((m) => m.type === '@latch-app/SYNC_THEME').map((m) => m.payload)).toEqual([{ themeMode: 'dark', themeVariables: { '--latch-accent': '#ff0000' }, locale: 'de' }])
    locale = 'fr'
    client.syncAppearance()
    await flush()
    expect(sent.filter((m) => m.type === '@latch-app/SYNC_THEME').at(-1)?.payload).toMatchObject({ locale: 'fr' })
  })

  it('refuses a second e-mail login within 30 s with the spec message', async () => {
    let t = 1_000_000
    const { client, spy, ready, frame, last, storage } = setup({ now: () => t })
    client.start()
    spy()
    ready()
    const first = client.connectEmail('a@b.co')
    await flush()
    frame({ id: last().id, type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'VERIFY_OTP' } })
    await first
    expect(storage.getItem(EMBEDDED_STORAGE_KEYS.lastEmailLoginTime)).toBe(String(t))
    t += 12_500
    await expect(client.connectEmail('a@b.co')).rejects.toThrow('Please try again after 18 seconds')
    const otp = client.connectOtp('123456')
    await flush()
    frame({ id: last().id, type: '@latch-frame/CONNECT_OTP_SUCCESS' })
    await otp
    expect(storage.getItem(EMBEDDED_STORAGE_KEYS.lastEmailLoginTime)).toBeNull()
    expect(storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed)).toBe('true')
  })

  it('isConnected: no e-mail login used → false without creating the frame; a "no" clears the cache', async () => {
    const { client, spy, ready, frame, last, storage } = setup()
    await expect(client.isConnected()).resolves.toBe(false)
    expect(client.status()).toBe('idle')
    storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    storage.setItem(EMBEDDED_STORAGE_KEYS.email, 'a@b.co')
    const p = client.isConnected()
    spy()
    ready()
    await flush()
    frame({ id: last().id, type: '@latch-frame/IS_CONNECTED_SUCCESS', payload: { isConnected: false } })
    await expect(p).resolves.toBe(false)
    expect(storage.getItem(EMBEDDED_STORAGE_KEYS.email)).toBeNull()
  })

  it('signOut clears the cache at once and waits for the frame at most 3 s', async () => {
    const { client, spy, ready, storage, last, frame } = setup()
    client.start()
    spy()
    ready()
    storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    let done = false
    const p = client.signOut().then(() => (done = true))
    expect(storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed)).toBeNull()
    await flush()
    expect(last().type).toBe('@latch-app/SIGN_OUT')
    await vi.advanceTimersByTimeAsync(2_999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)
    // Answered sooner: done sooner.
    const q = client.signOut()
    await flush()
    frame({ id: last().id, type: '@latch-frame/SIGN_OUT_SUCCESS' })
    await q
  })
})
