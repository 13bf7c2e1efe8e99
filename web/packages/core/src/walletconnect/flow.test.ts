import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWalletConnectFlow, type WalletConnectFailure } from './flow.js'
import { PAIRING_LIFETIME_MS, PAIRING_RENEW_MARGIN_MS } from './pairing.js'

/** A connector stand-in: each connect() is an attempt the test settles, URIs are pushed by hand. */
function setup() {
  const uriListeners = new Set<(uri: string) => void>()
  const attempts: Array<{ resolve: () => void; reject: (error: unknown) => void; cancelled: boolean }> = []
  const onSuccess = vi.fn()
  const onFailure = vi.fn<(failure: WalletConnectFailure) => void>()
  const flow = createWalletConnectFlow({
    connect: () =>
      new Promise<void>((resolve, reject) => {
        attempts.push({ resolve, reject, cancelled: false })
      }),
    cancel() {
      const current = attempts[attempts.length - 1]
      if (!current || current.cancelled) return
      current.cancelled = true
      current.reject(new Error('Connection request reset. Please try again.'))
    },
    subscribeUri(listener) {
      uriListeners.add(listener)
      return () => uriListeners.delete(listener)
    },
    toFailure: (error) => ({
      kind: (error as { code?: number }).code === 4001 ? 'user_rejected' : 'unknown',
      message: (error as Error).message,
    }),
    onSuccess,
    onFailure,
  })
  const display = (uri: string) => {
    for (const listener of uriListeners) listener(uri)
  }
  /** Lets the flow's promise chain run. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve()
  }
  return { flow, attempts, display, settle, onSuccess, onFailure, uriListeners }
}

const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 })

describe('WalletConnect pairing flow', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(1_700_000_000_000)
  })
  afterEach(() => vi.useRealTimers())

  it('starts an attempt, shows its URI for 4 minutes, and finishes on approval', async () => {
    const { flow, attempts, display, settle, onSuccess } = setup()
    flow.ensurePairing()
    await settle()
    expect(attempts).toHaveLength(1)
    expect(flow.store.getState()).toMatchObject({ pending: true, uri: undefined })
    display('wc:one@2')
    expect(flow.store.getState()).toMatchObject({ uri: 'wc:one@2', expiresAt: Date.now() + PAIRING_LIFETIME_MS, pending: true })
    attempts[0]!.resolve()
    await settle()
    expect(onSuccess).toHaveBeenCalledTimes(1)
    expect(flow.store.getState()).toEqual({ uri: undefined, expiresAt: undefined, pending: false, error: null })
  })

  it('reuses a pairing with 10 s or more left, renews one with less', async () => {
    const { flow, attempts, display, settle } = setup()
    flow.ensurePairing()
    flow.ensurePairing() // a second view mount while the URI is being created
    await settle()
    expect(attempts).toHaveLength(1)
    display('wc:one@2')
    vi.setSystemTime(Date.now() + PAIRING_LIFETIME_MS - PAIRING_RENEW_MARGIN_MS)
    flow.ensurePairing()
    await settle()
    expect(attempts).toHaveLength(1)
    vi.setSystemTime(Date.now() + 1)
    flow.ensurePairing()
    await settle()
    expect(attempts).toHaveLength(2)
    expect(attempts[0]!.cancelled).toBe(true)
    expect(flow.store.getState()).toMatchObject({ pending: true, uri: undefined })
  })

  it('renews the pairing by itself 10 s before it lapses', async () => {
    const { flow, attempts, display, settle } = setup()
    flow.ensurePairing()
    await settle()
    display('wc:one@2')
    await vi.advanceTimersByTimeAsync(PAIRING_LIFETIME_MS - PAIRING_RENEW_MARGIN_MS - 1)
    expect(attempts).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(attempts).toHaveLength(2)
    expect(attempts[0]!.cancelled).toBe(true)
    display('wc:two@2')
    expect(flow.store.getState().uri).toBe('wc:two@2')
  })

  it('waits for the abandoned attempt to settle before starting the next', async () => {
    const { flow, attempts, settle } = setup()
    flow.ensurePairing()
    await settle()
    flow.retry()
    // the cancelled attempt rejected (fake cancel rejects synchronously); the next starts after it
    expect(attempts).toHaveLength(1)
    await settle()
    expect(attempts).toHaveLength(2)
  })

  it('a decline shows the error and, 1 s after the last attempt, offers a new pairing', async () => {
    const { flow, attempts, display, settle, onFailure } = setup()
    flow.ensurePairing()
    await settle()
    display('wc:one@2')
    vi.setSystemTime(Date.now() + 1_000)
    attempts[0]!.reject(rejected)
    await settle()
    expect(onFailure).toHaveBeenCalledWith({ kind: 'user_rejected', message: 'User rejected the request.' })
    expect(attempts).toHaveLength(2)
    expect(flow.store.getState()).toMatchObject({ pending: true, uri: undefined, error: { kind: 'user_rejected' } })
    display('wc:two@2')
    expect(flow.store.getState()).toMatchObject({ uri: 'wc:two@2', error: { kind: 'user_rejected' } })
  })

  it('a decline within 1 s of the last attempt does not retry', async () => {
    const { flow, attempts, settle } = setup()
    flow.ensurePairing()
    await settle()
    vi.setSystemTime(Date.now() + 999)
    attempts[0]!.reject(rejected)
    await settle()
    expect(attempts).toHaveLength(1)
    expect(flow.store.getState()).toMatchObject({ pending: false, error: { kind: 'user_rejected' } })
  })

  it('other failures wait for Try again', async () => {
    const { flow, attempts, settle } = setup()
    flow.ensurePairing()
    await settle()
    vi.setSystemTime(Date.now() + 20_000)
    attempts[0]!.reject(new Error('WebSocket connection closed abnormally with code: 3000'))
    await settle()
    expect(attempts).toHaveLength(1)
    expect(flow.store.getState()).toMatchObject({ pending: false, error: { kind: 'unknown', message: expect.stringMatching(/3000/) } })
    flow.retry()
    await settle()
    expect(attempts).toHaveLength(2)
    expect(flow.store.getState()).toMatchObject({ pending: true, error: null })
  })

  it('stop abandons the attempt and ignores its late result', async () => {
    const { flow, attempts, display, settle, onSuccess, onFailure } = setup()
    flow.ensurePairing()
    await settle()
    display('wc:one@2')
    flow.stop()
    expect(attempts[0]!.cancelled).toBe(true)
    await settle()
    expect(onFailure).not.toHaveBeenCalled()
    expect(flow.store.getState()).toEqual({ uri: undefined, expiresAt: undefined, pending: false, error: null })
    display('wc:stray@2') // not ours: no attempt in flight
    expect(flow.store.getState().uri).toBeUndefined()
    await vi.advanceTimersByTimeAsync(PAIRING_LIFETIME_MS)
    expect(attempts).toHaveLength(1)
    expect(onSuccess).not.toHaveBeenCalled()
  })

  it('a hook that throws does not stop later attempts', async () => {
    const { flow, attempts, settle, onFailure } = setup()
    const report = vi.spyOn(console, 'error').mockImplementation(() => {})
    onFailure.mockImplementation(() => {
      throw new Error('listener bug')
    })
    flow.ensurePairing()
    await settle()
    attempts[0]!.reject(new Error('relay closed'))
    await settle()
    expect(report).toHaveBeenCalledWith('[latch] WalletConnect pairing flow:', new Error('listener bug'))
    flow.retry()
    await settle()
    expect(attempts).toHaveLength(2)
    report.mockRestore()
  })

  it('destroy drops the URI subscription', () => {
    const { flow, uriListeners } = setup()
    expect(uriListeners.size).toBe(1)
    flow.destroy()
    expect(uriListeners.size).toBe(0)
  })
})
