import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ErrorReport, PendingEvent } from './api'
import { createEventBus } from './events'
import { createTelemetry, ERROR_REPORT_WINDOW_MS, TELEMETRY_FLUSH_INTERVAL_MS } from './telemetry'

function setup(analytics = true) {
  const batches: PendingEvent[][] = []
  const errors: ErrorReport[] = []
  const api = {
    sendEvents: vi.fn(async (events: readonly PendingEvent[]) => void batches.push([...events])),
    sendError: vi.fn(async (report: ErrorReport) => void errors.push(report)),
  }
  const bus = createEventBus(() => 1_700_000_000_000)
  let hide = () => {}
  let clock = 1_700_000_000_000
  const state = { analytics }
  const telemetry = createTelemetry({
    api,
    bus,
    isAnalyticsEnabled: () => state.analytics,
    now: () => clock,
    page: () => ({ url: 'https://dapp.example/x', domain: 'dapp.example' }),
    onHidden: (cb) => ((hide = cb), () => {}),
  })
  return { api, bus, batches, errors, telemetry, hidePage: () => hide(), tick: (ms: number) => (clock += ms), state }
}

describe('telemetry', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('batches PendingEvents and flushes 10 s after the first', async () => {
    const { bus, batches } = setup()
    bus.sendEvent({ type: 'track', event: 'MODAL_OPEN', properties: { connected: false } })
    bus.sendEvent({ type: 'track', event: 'SELECT_WALLET', address: '0xabc' })
    await vi.advanceTimersByTimeAsync(TELEMETRY_FLUSH_INTERVAL_MS - 1)
    expect(batches).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(batches).toHaveLength(1)
    const [first, second] = batches[0]!
    expect(first).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      url: 'https://dapp.example/x',
      domain: 'dapp.example',
      timestamp: 1_700_000_000_000,
      props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
    })
    expect(second?.props).toEqual({ type: 'track', event: 'SELECT_WALLET', address: '0xabc' })
  })

  it('never sends MODAL_CREATED', async () => {
    const { bus, telemetry } = setup()
    bus.sendEvent({ type: 'track', event: 'MODAL_CREATED' })
    expect(telemetry.pending()).toBe(0)
  })

  it('with analytics off sends only INITIALIZE, CONNECT_SUCCESS and SOCIAL_LOGIN_SUCCESS', async () => {
    const { bus, telemetry, batches } = setup(false)
    for (const event of ['MODAL_OPEN', 'INITIALIZE', 'CONNECT_SUCCESS', 'SOCIAL_LOGIN_SUCCESS', 'CONNECT_ERROR'] as const) {
      bus.sendEvent({ type: 'track', event })
    }
    await telemetry.flush()
    expect(batches[0]!.map((e) => e.props.event)).toEqual(['INITIALIZE', 'CONNECT_SUCCESS', 'SOCIAL_LOGIN_SUCCESS'])
  })

  it('flushes at once past 45 KB', async () => {
    const { bus, batches } = setup()
    const big = 'x'.repeat(10_000)
    for (let i = 0; i < 5; i++) bus.sendEvent({ type: 'track', event: 'SEARCH_WALLET', properties: { big } })
    await vi.advanceTimersByTimeAsync(0)
    expect(batches).toHaveLength(1)
    expect(batches[0]).toHaveLength(5)
  })

  it('flushes when the page is hidden', async () => {
    const { bus, batches, hidePage } = setup()
    bus.sendEvent({ type: 'track', event: 'MODAL_CLOSE' })
    hidePage()
    await vi.advanceTimersByTimeAsync(0)
    expect(batches).toHaveLength(1)
  })

  it('caps error reports at 5 per 60 s', async () => {
    const { telemetry, errors, tick } = setup()
    const sent = []
    for (let i = 0; i < 6; i++) sent.push(await telemetry.reportError(new TypeError(`bad ${i}`), 'INTERNAL_SDK_ERROR'))
    expect(sent).toEqual([true, true, true, true, true, false])
    expect(errors[0]!.props).toMatchObject({ type: 'error', event: 'INTERNAL_SDK_ERROR', errorType: 'TypeError', errorMessage: 'bad 0' })
    expect(errors[0]!.timestamp).toBe(new Date(1_700_000_000_000).toISOString())
    tick(ERROR_REPORT_WINDOW_MS)
    expect(await telemetry.reportError('later', 'INTERNAL_SDK_ERROR')).toBe(true)
  })

  it('sends no error reports with analytics off, and stop() flushes and unsubscribes', async () => {
    const { telemetry, bus, batches, state, api } = setup()
    bus.sendEvent({ type: 'track', event: 'MODAL_OPEN' })
    await telemetry.stop()
    expect(batches).toHaveLength(1)
    bus.sendEvent({ type: 'track', event: 'MODAL_OPEN' })
    expect(telemetry.pending()).toBe(0)
    state.analytics = false
    expect(await telemetry.reportError(new Error('x'), 'X')).toBe(false)
    expect(api.sendError).not.toHaveBeenCalled()
  })
})
