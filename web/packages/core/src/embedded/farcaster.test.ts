// @vitest-environment jsdom
// Sign In With Farcaster on the page's side: connectFarcaster drives a real
// Latch with the real frame client against a scripted frame window.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineChain } from 'viem'
import { createLatch } from '../latch'
import type { Latch } from '../latch-types'
import { connectFarcaster } from './actions/connectFarcaster'
import { EMBEDDED_STORAGE_KEYS } from './storageKeys'

const FRAME = 'http://frame.test:8081'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const URI = 'farcaster://connect?channelToken=t1&nonce=n1'
const dev = defineChain({ id: 31337, name: 'Latch Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })

/** A scripted frame: GET_FARCASTER_URI answers at once, CONNECT_FARCASTER when the test completes it. */
function scriptedFrame() {
  const sent: { id: string; type: string; payload?: Record<string, unknown> }[] = []
  let win: Window | undefined
  let waiting: (typeof sent)[number] | undefined
  const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, origin: FRAME, source: win! }))
  const answer = (m: (typeof sent)[number], result: unknown, ok = true) =>
    post({ id: m.id, type: `@latch-frame/${m.type.slice('@latch-app/'.length)}_${ok ? 'SUCCESS' : 'ERROR'}`, payload: ok ? result : { message: result } })
  function onPost(m: (typeof sent)[number]) {
    sent.push(m)
    switch (m.type.slice('@latch-app/'.length)) {
      case 'GET_FARCASTER_URI':
        return answer(m, { url: URI })
      case 'CONNECT_FARCASTER':
        waiting = m
        return
      case 'GET_USER':
        return answer(m, { email: null, userName: 'latch-dev', address: ADDRESS.toLowerCase(), chainId: 31337, accounts: [] })
      case 'SWITCH_NETWORK':
        return answer(m, { chainId: m.payload!.chainId })
    }
  }
  return {
    sent,
    /** The Farcaster client completed the channel (or latchd refused: error). */
    complete: (error?: string) => (error ? answer(waiting!, error, false) : answer(waiting!, { userName: 'latch-dev' })),
    waiting: () => waiting,
    attach() {
      const el = document.querySelector('iframe')
      if (!el?.contentWindow || win === el.contentWindow) return
      win = el.contentWindow
      vi.spyOn(win, 'postMessage').mockImplementation(((m: (typeof sent)[number]) => queueMicrotask(() => onPost(m))) as Window['postMessage'])
      post({ type: '@latch-frame/READY', payload: { version: '1' } })
    },
  }
}

const latches: Latch[] = []
let poll: ReturnType<typeof setInterval> | undefined
afterEach(() => {
  clearInterval(poll)
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
  localStorage.clear()
})

async function setup() {
  const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false })
  latches.push(latch)
  const frame = scriptedFrame()
  poll = setInterval(() => frame.attach(), 1)
  return { latch, frame, social: () => latch._internal.embedded!.store.getState().social }
}

describe('connectFarcaster', () => {
  it('shows the QR code on ConnectingFarcaster, waits for the Farcaster client, then connects the wallet', async () => {
    const { latch, frame, social } = await setup()
    const done = connectFarcaster(latch)
    expect(latch.getState().view).toBe('ConnectingFarcaster')
    await vi.waitFor(() => expect(frame.waiting()).toBeDefined())
    expect(social()).toEqual({ provider: 'farcaster', step: 'qr', error: undefined, uri: URI })
    expect(frame.waiting()!.payload).toEqual({ chainId: 'eip155:31337' })
    frame.complete()
    await done
    expect(social()).toMatchObject({ provider: 'farcaster', step: 'done' })
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: ADDRESS })
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.socialUsername)).toBe('latch-dev')
  })

  it('going back while unconnected ends the wait and resets the auth provider', async () => {
    const { latch, frame, social } = await setup()
    const done = connectFarcaster(latch)
    await vi.waitFor(() => expect(social()?.step).toBe('qr'))
    latch._internal.router.goBack()
    await done
    expect(latch.getState().view).toBe('Connect')
    expect(social()).toBeUndefined()
    // The frame was told to stop polling latchd.
    await vi.waitFor(() => expect(frame.sent.some((m) => m.type === '@latch-app/RPC_ABORT')).toBe(true))
    expect(latch.getState().account.status).toBe('disconnected')
  })

  it("stays on the view with latchd's refusal", async () => {
    const { latch, frame, social } = await setup()
    const done = connectFarcaster(latch)
    await vi.waitFor(() => expect(frame.waiting()).toBeDefined())
    frame.complete('This Farcaster sign-in has expired: please start again')
    await done
    expect(social()).toMatchObject({ provider: 'farcaster', step: 'error', error: 'This Farcaster sign-in has expired: please start again' })
    expect(latch.getState().view).toBe('ConnectingFarcaster')
  })
})
