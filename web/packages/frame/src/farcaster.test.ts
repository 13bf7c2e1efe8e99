import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import { parseFrameEvent } from '../../core/src/embedded/protocol'
import { openDeviceStore } from './deviceStore'
import { NO_FARCASTER_LOGIN } from './farcaster'
import { createFrame } from './frame'
import { fakeLatchd } from './testing/fakeLatchd'

const PAGE = 'https://app.example'

// The frame over fakeLatchd; onSleep runs at each poll's wait (the Farcaster client acts then).
async function embed(server: ReturnType<typeof fakeLatchd>, onSleep: (n: number) => void = () => undefined) {
  const posted: { id?: string; type: string; payload?: unknown }[] = []
  const parent = {
    postMessage: (msg: (typeof posted)[number], origin: string) => {
      expect(origin).toBe(PAGE)
      expect(parseFrameEvent(msg)).toBeDefined()
      posted.push(msg)
    },
  } as unknown as Window
  let sleeps = 0
  const frame = await createFrame({
    api: server.api,
    store: openDeviceStore(new IDBFactory()),
    projectId: 'p'.repeat(32),
    chainId: 'eip155:31337',
    parent,
    parentOrigin: PAGE,
    listen: () => undefined,
    reload: () => undefined,
    log: () => undefined,
    // Nothing here signs: a request shown would be refused.
    prompt: async () => false,
    wallet: {
      sleep: (_ms, signal) =>
        new Promise<void>((resolve, reject) => {
          onSleep(++sleeps)
          if (signal?.aborted) return reject(new Error('Request was aborted'))
          setTimeout(resolve, 1)
        }),
    },
  })
  let n = 0
  const answerOf = (id: string) => posted.find((p) => p.id === id && /_(SUCCESS|ERROR)$/.test(p.type))
  // send posts an event without waiting for its answer.
  const send = (type: string, payload?: unknown) => {
    const id = `f${++n}`
    void frame.handle({ data: { id, type: `@latch-app/${type}`, payload }, origin: PAGE, source: parent as unknown as MessageEventSource })
    return id
  }
  const ask = async (type: string, payload?: unknown) => {
    const id = send(type, payload)
    // GET_USER loads and runs the key code (creating the wallet): slow on a busy machine.
    await vi.waitFor(() => expect(answerOf(id)).toBeDefined(), { timeout: 5000 })
    return answerOf(id)!
  }
  return { ask, send, answerOf }
}

const tokenOf = (url: string) => new URL(url.replace('farcaster://', 'https://')).searchParams.get('channelToken')!

describe('Sign In With Farcaster in the frame', () => {
  it('opens a channel with a PKCE challenge, waits for the Farcaster client, and connects with its verifier', async () => {
    const server = fakeLatchd()
    let token = ''
    // The Farcaster client completes the channel while the frame polls (at its third wait).
    const { ask } = await embed(server, (n) => n === 3 && server.completeFarcaster(token, 1, 'latch-dev'))
    const uri = await ask('GET_FARCASTER_URI')
    expect(uri.type).toBe('@latch-frame/GET_FARCASTER_URI_SUCCESS')
    const url = (uri.payload as { url: string }).url
    expect(url).toMatch(/^farcaster:\/\/connect\?channelToken=/)
    token = tokenOf(url)
    expect(server.farcasterChannels.get(token)!.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const connect = await ask('CONNECT_FARCASTER', { chainId: 'eip155:31337' })
    expect(connect).toMatchObject({ type: '@latch-frame/CONNECT_FARCASTER_SUCCESS', payload: { userName: 'latch-dev' } })
    expect(server.calls.filter((c) => c === 'farcasterStatus').length).toBe(4)
    const user = (await ask('GET_USER', { chainId: 'eip155:31337' })).payload as { userName: string; email: string | null }
    expect(user).toMatchObject({ userName: 'latch-dev', email: null })
    // The channel is spent: a second wait has nothing to wait for.
    expect(await ask('CONNECT_FARCASTER')).toMatchObject({ type: '@latch-frame/CONNECT_FARCASTER_ERROR', payload: { message: NO_FARCASTER_LOGIN } })
  })

  it('refuses CONNECT_FARCASTER before a channel, and ends the wait on RPC_ABORT', async () => {
    const server = fakeLatchd()
    const { ask, send, answerOf } = await embed(server)
    expect(await ask('CONNECT_FARCASTER')).toMatchObject({ payload: { message: NO_FARCASTER_LOGIN } })
    await ask('GET_FARCASTER_URI')
    const waiting = send('CONNECT_FARCASTER')
    await vi.waitFor(() => expect(server.calls.filter((c) => c === 'farcasterStatus').length).toBeGreaterThan(1))
    expect(answerOf(waiting)).toBeUndefined()
    await ask('RPC_ABORT')
    await vi.waitFor(() => expect(answerOf(waiting)).toMatchObject({ type: '@latch-frame/CONNECT_FARCASTER_ERROR', payload: { message: 'Request was aborted' } }))
    expect(server.calls).not.toContain('farcasterConnect')
  })

  it("passes latchd's refusals on", async () => {
    const opts = { allowedOrigins: [PAGE] }
    const server = fakeLatchd(opts)
    const { ask } = await embed(server)
    // Another device's frame (here: a tampered channel) is refused by latchd with its message.
    const url = ((await ask('GET_FARCASTER_URI')).payload as { url: string }).url
    server.farcasterChannels.get(tokenOf(url))!.deviceId = 'another-device-000000000'
    expect(await ask('CONNECT_FARCASTER')).toMatchObject({ payload: { message: 'This Farcaster sign-in was started on another device' } })
    opts.allowedOrigins = ['https://other.example']
    expect(await ask('GET_FARCASTER_URI')).toMatchObject({ type: '@latch-frame/GET_FARCASTER_URI_ERROR', payload: { message: `Origin not allowed: ${PAGE}` } })
  })
})
