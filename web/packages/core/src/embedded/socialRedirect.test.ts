// @vitest-environment jsdom
// Social login in redirect mode (spec §2, a Telegram mini-app): result_uri is
// read, then removed from the address after 100 ms, and the login finishes
// through the frame like a popup's.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineChain } from 'viem'
import { createLatch } from '../latch'
import type { Latch } from '../latch-types'
import { finishSocialRedirect, isTelegramMiniApp, readResultUri, RESULT_URI_REMOVE_MS, startSocialRedirect, TELEGRAM_SOCIAL_PROVIDER_KEY } from './actions/socialRedirect'

const FRAME = 'http://frame.test:8081'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const RESULT = `${FRAME}/auth/v1/social/result?state=s1&code=c1`
const dev = defineChain({ id: 31337, name: 'Latch Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })

/** A page window: its address, history and storage. */
function pageWindow(href: string) {
  const store = new Map<string, string>()
  const win = {
    document,
    location: { href },
    history: {
      state: { tg: 1 },
      replaceState: vi.fn((_state: unknown, _unused: string, url: string) => {
        win.location.href = url
      }),
    },
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
  }
  return win
}

describe('readResultUri', () => {
  it('reads result_uri, then removes it from the address after 100 ms, keeping the rest', () => {
    vi.useFakeTimers()
    try {
      const win = pageWindow(`https://app.example/tg/?tgWebAppStartParam=x&result_uri=${encodeURIComponent(RESULT)}#frag`)
      expect(readResultUri(win)).toBe(RESULT)
      vi.advanceTimersByTime(RESULT_URI_REMOVE_MS - 1)
      expect(win.location.href).toContain('result_uri=')
      vi.advanceTimersByTime(1)
      expect(win.history.replaceState).toHaveBeenCalledWith({ tg: 1 }, '', 'https://app.example/tg/?tgWebAppStartParam=x#frag')
      expect(win.location.href).toBe('https://app.example/tg/?tgWebAppStartParam=x#frag')
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves an address without result_uri alone', () => {
    vi.useFakeTimers()
    try {
      const win = pageWindow('https://app.example/?a=1')
      expect(readResultUri(win)).toBeUndefined()
      vi.advanceTimersByTime(1000)
      expect(win.history.replaceState).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  it('detects a Telegram mini-app by its WebApp object', () => {
    expect(isTelegramMiniApp({})).toBe(false)
    expect(isTelegramMiniApp({ Telegram: { WebApp: { platform: 'ios' } } })).toBe(true)
  })
})

/** A scripted frame answering the social messages and GET_USER. */
function scriptedFrame() {
  const sent: { id: string; type: string; payload?: Record<string, unknown> }[] = []
  let win: Window | undefined
  const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, origin: FRAME, source: win! }))
  const answer = (m: (typeof sent)[number], result: unknown) => post({ id: m.id, type: `@latch-frame/${m.type.slice('@latch-app/'.length)}_SUCCESS`, payload: result })
  function onPost(m: (typeof sent)[number]) {
    sent.push(m)
    switch (m.type.slice('@latch-app/'.length)) {
      case 'GET_SOCIAL_REDIRECT_URI':
        return answer(m, { uri: `${FRAME}/auth/v1/social/begin?state=s1&p=${m.payload!.provider}` })
      case 'CONNECT_SOCIAL':
        return answer(m, { provider: 'google', userName: 'ada', email: 'ada@example.com' })
      case 'GET_USER':
        return answer(m, { email: 'ada@example.com', userName: 'ada', address: ADDRESS.toLowerCase(), chainId: 31337, accounts: [] })
      case 'SWITCH_NETWORK':
        return answer(m, { chainId: m.payload!.chainId })
    }
  }
  return {
    sent,
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
  vi.restoreAllMocks()
  clearInterval(poll)
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
  localStorage.clear()
})

describe('redirect mode', () => {
  it('goes to the provider with the page as return URL, then finishes with the result the page comes back with', async () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false })
    latches.push(latch)
    const frame = scriptedFrame()
    poll = setInterval(() => frame.attach(), 1)
    const win = pageWindow('https://app.example/tg/?x=1')
    const forms: { method: string; action: string; target: string }[] = []
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      forms.push({ method: this.method, action: this.action, target: this.target })
    })
    await startSocialRedirect(latch, 'google', win)
    expect(frame.sent.find((m) => m.type === '@latch-app/GET_SOCIAL_REDIRECT_URI')?.payload).toEqual({ provider: 'google', returnUrl: 'https://app.example/tg/?x=1' })
    // The page posts itself to the login's begin URL (latchd checks its Origin, then sends it to the provider).
    expect(forms).toEqual([{ method: 'post', action: `${FRAME}/auth/v1/social/begin?state=s1&p=google`, target: '_self' }])
    expect(win.localStorage.getItem(TELEGRAM_SOCIAL_PROVIDER_KEY)).toBe('google')

    // The page comes back (latchd's callback added result_uri) and starts again.
    win.location.href = `https://app.example/tg/?x=1&result_uri=${encodeURIComponent(RESULT)}`
    await finishSocialRedirect(latch, win)
    expect(frame.sent.find((m) => m.type === '@latch-app/CONNECT_SOCIAL')?.payload).toEqual({ uri: RESULT, chainId: 'eip155:31337' })
    expect(latch._internal.embedded!.store.getState().social).toMatchObject({ provider: 'google', step: 'done' })
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: ADDRESS })
    expect(win.localStorage.getItem(TELEGRAM_SOCIAL_PROVIDER_KEY)).toBeNull()
    await vi.waitFor(() => expect(win.location.href).toBe('https://app.example/tg/?x=1'))
  })

  it("ignores a result_uri the page did not start a login for (the app's own parameter)", async () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false })
    latches.push(latch)
    const win = pageWindow(`https://app.example/?result_uri=${encodeURIComponent(RESULT)}`)
    await finishSocialRedirect(latch, win)
    expect(latch._internal.embedded!.store.getState().social).toBeUndefined()
    await new Promise((r) => setTimeout(r, RESULT_URI_REMOVE_MS + 20))
    expect(win.history.replaceState).not.toHaveBeenCalled()
    expect(document.querySelector('iframe')).toBeNull()
  })
})

describe('at start', () => {
  it('a Latch created on the page that came back with result_uri finishes the login and cleans the address', async () => {
    window.history.pushState({}, '', `/tg/?x=1&result_uri=${encodeURIComponent(RESULT)}`)
    localStorage.setItem(TELEGRAM_SOCIAL_PROVIDER_KEY, 'google')
    const frame = scriptedFrame()
    poll = setInterval(() => frame.attach(), 1)
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false })
    latches.push(latch)
    void latch.init().catch(() => undefined)
    await vi.waitFor(() => expect(latch.getState().account.status).toBe('connected'), { timeout: 4000 })
    expect(frame.sent.find((m) => m.type === '@latch-app/CONNECT_SOCIAL')?.payload).toMatchObject({ uri: RESULT })
    await vi.waitFor(() => expect(window.location.search).toBe('?x=1'))
    window.history.pushState({}, '', '/')
  })
})
