// @vitest-environment jsdom
// Social login on the page's side: the popup's result is taken only from
// the frame origin and that popup; the action drives a real Latch with the
// real frame client against a scripted frame window.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineChain } from 'viem'
import { createLatch } from '../latch'
import type { Latch } from '../latch-types'
import { connectSocial } from './actions/connectSocial'
import { SOCIAL_PROVIDER_MESSAGE } from './protocol'
import { openSocialPopup, SOCIAL_POPUP_BLOCKED, SOCIAL_POPUP_CLOSED, SOCIAL_POPUP_POLL_MS, waitForSocialResult } from './socialPopup'
import { EMBEDDED_STORAGE_KEYS } from './storageKeys'

const FRAME = 'http://frame.test:8081'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const RESULT = `${FRAME}/auth/v1/social/result?state=s1&code=c1`
const dev = defineChain({ id: 31337, name: 'Latch Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })

/** A page window whose message listeners the test calls itself. */
function pageWindow() {
  const listeners = new Set<(ev: MessageEvent) => void>()
  return {
    addEventListener: (_: string, fn: (ev: MessageEvent) => void) => void listeners.add(fn),
    removeEventListener: (_: string, fn: (ev: MessageEvent) => void) => void listeners.delete(fn),
    post: (data: unknown, origin: string, source: unknown) => listeners.forEach((fn) => fn({ data, origin, source } as MessageEvent)),
    listeners,
  }
}

function fakePopup() {
  return { name: 'latch-social-1', closed: false, close() { this.closed = true } }
}

/** The forms the page submits (beginSocialLogin), as the browser would post them. */
function submittedForms() {
  const forms: { method: string; action: string; target: string }[] = []
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    forms.push({ method: this.method, action: this.action, target: this.target })
  })
  return forms
}

describe('waitForSocialResult', () => {
  it('takes the result only from the frame origin and the popup', async () => {
    const win = pageWindow()
    const popup = fakePopup()
    const result = waitForSocialResult(popup, { frameOrigin: FRAME, win })
    win.post({ resultUri: 'https://evil.example/steal' }, 'https://evil.example', popup) // wrong origin
    win.post({ resultUri: `${FRAME}/other` }, FRAME, {}) // another window of the frame origin
    win.post({ nothing: true }, FRAME, popup) // not a result
    win.post({ resultUri: RESULT }, FRAME, popup)
    await expect(result).resolves.toBe(RESULT)
    expect(win.listeners.size).toBe(0)
  })

  it('fails when the popup is closed first', async () => {
    vi.useFakeTimers()
    try {
      const win = pageWindow()
      const popup = fakePopup()
      const result = waitForSocialResult(popup, { frameOrigin: FRAME, win })
      popup.closed = true
      vi.advanceTimersByTime(SOCIAL_POPUP_POLL_MS)
      await expect(result).rejects.toThrow(SOCIAL_POPUP_CLOSED)
    } finally {
      vi.useRealTimers()
    }
  })

  it('opens a blank popup of its own name that says it is loading', () => {
    const doc = { title: '', body: { textContent: '' } }
    const open = vi.fn(() => ({ document: doc }))
    expect(openSocialPopup({ open, screenX: 0, screenY: 0, outerWidth: 1000, outerHeight: 800 } as unknown as Window)).toBeTruthy()
    expect(open).toHaveBeenCalledWith('about:blank', expect.stringMatching(/^latch-social-\d+-\d+$/), expect.stringContaining('width=500'))
    const [, first] = open.mock.calls[0] as unknown as [string, string]
    openSocialPopup({ open, screenX: 0, screenY: 0, outerWidth: 1000, outerHeight: 800 } as unknown as Window)
    expect((open.mock.calls[1] as unknown as [string, string])[1]).not.toBe(first)
    expect(doc.body.textContent).toBe('Loading…')
  })
})

/** A scripted frame answering the social messages and GET_USER. */
function scriptedFrame(connectError?: string, recoveryRequired = false) {
  const sent: { id: string; type: string; payload?: Record<string, unknown> }[] = []
  let win: Window | undefined
  const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, origin: FRAME, source: win! }))
  const answer = (m: (typeof sent)[number], result: unknown, ok = true) =>
    post({ id: m.id, type: `@latch-frame/${m.type.slice('@latch-app/'.length)}_${ok ? 'SUCCESS' : 'ERROR'}`, payload: ok ? result : { message: result } })
  function onPost(m: (typeof sent)[number]) {
    sent.push(m)
    switch (m.type.slice('@latch-app/'.length)) {
      case 'GET_SOCIAL_REDIRECT_URI':
        return answer(m, { uri: `${FRAME}/auth/v1/social/begin?state=s1&p=${m.payload!.provider}` })
      case 'CONNECT_SOCIAL':
        if (connectError) return answer(m, connectError, false)
        return answer(m, { provider: 'google', userName: 'ada', email: 'ada@example.com' })
      case 'GET_USER':
        if (recoveryRequired) return answer(m, 'Recovery password required', false)
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
afterEach(() => {
  vi.restoreAllMocks()
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
  localStorage.clear()
})

describe('connectSocial', () => {
  const newLatch = () => {
    const l = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false })
    latches.push(l)
    return l
  }
  const run = async <T,>(frame: ReturnType<typeof scriptedFrame>, p: Promise<T>) => {
    const poll = setInterval(() => frame.attach(), 1)
    try {
      return await p
    } finally {
      clearInterval(poll)
    }
  }

  it("posts the popup to the login's begin URL, hands the frame the result and connects the wallet", async () => {
    const latch = newLatch()
    const frame = scriptedFrame()
    const win = pageWindow()
    const popup = fakePopup()
    const forms = submittedForms()
    const done = run(frame, connectSocial(latch, 'google', popup as unknown as Window, { win }))
    // A form post from the page (its Origin is what latchd checks), targeting the popup; the form is gone after.
    await vi.waitFor(() => expect(forms).toEqual([{ method: 'post', action: `${FRAME}/auth/v1/social/begin?state=s1&p=google`, target: 'latch-social-1' }]))
    expect(document.querySelector('form')).toBeNull()
    expect(latch._internal.embedded!.store.getState().social).toMatchObject({ provider: 'google', step: 'popup' })
    win.post({ resultUri: RESULT }, FRAME, popup)
    await done
    expect(popup.closed).toBe(true)
    expect(frame.sent.find((m) => m.type === '@latch-app/CONNECT_SOCIAL')?.payload).toEqual({ uri: RESULT, chainId: 'eip155:31337' })
    expect(latch._internal.embedded!.store.getState().social).toMatchObject({ step: 'done', error: undefined })
    expect(latch.getState().account).toMatchObject({ status: 'connected', address: ADDRESS })
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed)).toBe('true')
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.socialUsername)).toBe('ada')
  })

  it('a new device of a wallet in password recovery mode goes on to the recovery password prompt', async () => {
    const latch = newLatch()
    const frame = scriptedFrame(undefined, true)
    const win = pageWindow()
    const popup = fakePopup()
    const forms = submittedForms()
    const done = run(frame, connectSocial(latch, 'google', popup as unknown as Window, { win }))
    await vi.waitFor(() => expect(forms[0]?.action).toContain('p=google'))
    win.post({ resultUri: RESULT }, FRAME, popup)
    await done
    expect(latch._internal.embedded!.store.getState()).toMatchObject({ step: 'recoveryPassword', social: { step: 'done' } })
    expect(latch.getState().view).toBe('EmailVerifyOtp')
  })

  it("shows the frame's refusal, and spec §5's message for another provider", async () => {
    const latch = newLatch()
    const frame = scriptedFrame('The PKCE code verifier does not match this social login')
    const win = pageWindow()
    const popup = fakePopup()
    const forms = submittedForms()
    const done = run(frame, connectSocial(latch, 'github', popup as unknown as Window, { win }))
    await vi.waitFor(() => expect(forms[0]?.action).toContain('p=github'))
    win.post({ resultUri: RESULT }, FRAME, popup)
    await done
    expect(latch._internal.embedded!.store.getState().social).toEqual({ provider: 'github', step: 'error', error: 'The PKCE code verifier does not match this social login' })
    expect(latch.getState().account.status).toBe('disconnected')

    const other = fakePopup()
    await connectSocial(latch, 'myspace', other as unknown as Window)
    expect(latch._internal.embedded!.store.getState().social).toMatchObject({ step: 'error', error: SOCIAL_PROVIDER_MESSAGE })
    expect(other.closed).toBe(true)
    await connectSocial(latch, 'google', null)
    expect(latch._internal.embedded!.store.getState().social).toMatchObject({ step: 'error', error: SOCIAL_POPUP_BLOCKED })
  })
})
