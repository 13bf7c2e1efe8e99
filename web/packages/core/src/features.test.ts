import { describe, expect, it, vi } from 'vitest'
import { createAlertController } from './alerts'
import { HttpError, type ProjectConfig } from './api'
import {
  checkAllowedOrigins,
  DEFAULT_REMOTE_FEATURES,
  fallbackRemoteFeatures,
  fetchAnalyticsEnabled,
  initProjectConfig,
  isOriginAllowed,
  loadRemoteFeatures,
  mapRemoteFeatures,
} from './features'

const alerts = () => createAlertController({ log: vi.fn() })
const config = (features: ProjectConfig['features']): ProjectConfig => ({ features })

describe('mapRemoteFeatures (api-shapes §1.3)', () => {
  it('maps each feature id', () => {
    const remote = mapRemoteFeatures(
      config([
        { id: 'social_login', isEnabled: true, config: ['email', 'google', 'github'] },
        { id: 'swap', isEnabled: true, config: ['1inch'] },
        { id: 'onramp', isEnabled: true, config: [] },
        { id: 'activity', isEnabled: true, config: [] },
        { id: 'reown_branding', isEnabled: false, config: [] },
        { id: 'email_capture', isEnabled: true, config: ['required'] },
        { id: 'headless', isEnabled: true, config: [] },
      ]),
    )
    expect(remote).toEqual({
      email: true,
      socials: ['google', 'github'],
      swaps: ['1inch'],
      onramp: false, // enabled but an empty config list
      activity: true,
      branding: false,
    })
  })

  it('email only: socials are off; disabled social login: both off', () => {
    expect(mapRemoteFeatures(config([{ id: 'social_login', isEnabled: true, config: ['email'] }]))).toMatchObject({ email: true, socials: [] })
    expect(mapRemoteFeatures(config([{ id: 'social_login', isEnabled: false, config: ['email', 'x'] }]))).toMatchObject({ email: false, socials: false })
  })

  it('a missing feature is off', () => {
    const remote = mapRemoteFeatures(config([]), { email: true, history: true })
    expect(remote).toMatchObject({ email: false, socials: false, swaps: false, onramp: false, activity: false, branding: false })
  })

  it('a null config takes the local option, else the default', () => {
    const remote = mapRemoteFeatures(
      config([
        { id: 'social_login', isEnabled: true, config: null },
        { id: 'activity', isEnabled: false, config: null },
        { id: 'swap', isEnabled: true, config: null },
      ]),
      { email: false, history: true },
    )
    expect(remote).toMatchObject({ email: false, socials: DEFAULT_REMOTE_FEATURES.socials, activity: true, swaps: ['1inch'] })
  })

  it('reads latchd send/receive when present', () => {
    expect(mapRemoteFeatures(config([{ id: 'send', isEnabled: false, config: [] }]))).toMatchObject({ send: false })
    expect(mapRemoteFeatures(config([]))).not.toHaveProperty('send')
  })
})

describe('loadRemoteFeatures', () => {
  it('missing projectId: PROJECT_ID_NOT_CONFIGURED alert and local features, no fetch', async () => {
    const a = alerts()
    const api = { getProjectConfig: vi.fn(), getAllowedOrigins: vi.fn() }
    const remote = await loadRemoteFeatures({ api, projectId: undefined, localFeatures: { swaps: false }, alerts: a })
    expect(a.store.getState().code).toBe('PROJECT_ID_NOT_CONFIGURED')
    expect(api.getProjectConfig).not.toHaveBeenCalled()
    expect(remote).toEqual({ ...DEFAULT_REMOTE_FEATURES, swaps: false })
  })

  it('fetch failure: warns and falls back to local options or defaults', async () => {
    const warn = vi.fn()
    const api = { getProjectConfig: vi.fn(() => Promise.reject(new HttpError(500, '/appkit/v1/config'))), getAllowedOrigins: vi.fn() }
    const remote = await loadRemoteFeatures({ api, projectId: 'p', localFeatures: { socials: ['github'], history: false }, alerts: alerts(), warn })
    expect(warn).toHaveBeenCalledOnce()
    expect(remote).toEqual({ ...DEFAULT_REMOTE_FEATURES, socials: ['github'], activity: false })
    expect(fallbackRemoteFeatures({ onramp: true, swaps: false })).toMatchObject({ onramp: ['meld'], swaps: false })
  })

  it('success with local remote-managed features: LOCAL_CONFIGURATION_IGNORED, remote wins', async () => {
    const a = alerts()
    const api = { getProjectConfig: vi.fn(async () => config([{ id: 'activity', isEnabled: false, config: [] }])), getAllowedOrigins: vi.fn() }
    const remote = await loadRemoteFeatures({ api, projectId: 'p', localFeatures: { history: true, send: false }, alerts: a })
    expect(remote.activity).toBe(false)
    expect(a.store.getState()).toMatchObject({ code: 'LOCAL_CONFIGURATION_IGNORED', variant: 'warning' })
    expect(a.store.getState().description).toContain('history')
  })

  it('success with only local-only features: no alert', async () => {
    const a = alerts()
    const api = { getProjectConfig: vi.fn(async () => config([])), getAllowedOrigins: vi.fn() }
    await loadRemoteFeatures({ api, projectId: 'p', localFeatures: { analytics: false }, alerts: a })
    expect(a.store.getState().open).toBe(false)
  })
})

describe('origin check (api-shapes §1.5)', () => {
  it('matches exact origins and the default ancestors', () => {
    expect(isOriginAllowed('https://dapp.example', ['https://dapp.example'])).toBe(true)
    expect(isOriginAllowed('http://localhost:5173', ['http://localhost:*'])).toBe(true)
    expect(isOriginAllowed('https://my-app.vercel.app', ['https://*.vercel.app'])).toBe(true)
    expect(isOriginAllowed('https://vercel.app.evil.example', ['https://*.vercel.app'])).toBe(false)
    expect(isOriginAllowed('https://evil.example', ['https://dapp.example'])).toBe(false)
  })

  const check = (result: () => Promise<readonly string[]>, origin = 'https://dapp.example') => {
    const a = alerts()
    return checkAllowedOrigins({ api: { getAllowedOrigins: vi.fn(result) }, alerts: a, origin }).then((r) => ({ r, code: a.store.getState().code }))
  }

  it('allowed origin: no alert', async () => {
    expect(await check(async () => ['https://dapp.example'])).toEqual({ r: 'allowed', code: undefined })
    expect(await check(async () => [], 'http://127.0.0.1:3000')).toEqual({ r: 'allowed', code: undefined })
  })

  it('origin not allowed: ORIGIN_NOT_ALLOWED', async () => {
    expect(await check(async () => ['https://other.example'])).toEqual({ r: 'not-allowed', code: 'ORIGIN_NOT_ALLOWED' })
  })

  it('429: RATE_LIMITED; 5xx: SERVER_ERROR; other errors count as an empty list', async () => {
    expect(await check(() => Promise.reject(new HttpError(429, '/projects/v1/origins')))).toEqual({ r: 'rate-limited', code: 'RATE_LIMITED' })
    expect(await check(() => Promise.reject(new HttpError(503, '/projects/v1/origins')))).toEqual({ r: 'server-error', code: 'SERVER_ERROR' })
    expect(await check(() => Promise.reject(new HttpError(403, '/projects/v1/origins')))).toEqual({ r: 'not-allowed', code: 'ORIGIN_NOT_ALLOWED' })
  })

  it('is skipped without a page origin (SSR)', async () => {
    const api = { getAllowedOrigins: vi.fn() }
    expect(await checkAllowedOrigins({ api, alerts: alerts() })).toBe('skipped')
    expect(api.getAllowedOrigins).not.toHaveBeenCalled()
  })

  it('initProjectConfig checks origins only when e-mail or socials are on', async () => {
    const getAllowedOrigins = vi.fn(async () => ['https://dapp.example'])
    const off = { getProjectConfig: vi.fn(async () => config([])), getAllowedOrigins }
    await initProjectConfig({ api: off, projectId: 'p', localFeatures: undefined, alerts: alerts(), origin: 'https://dapp.example' })
    expect(getAllowedOrigins).not.toHaveBeenCalled()
    const on = { getProjectConfig: vi.fn(async () => config([{ id: 'social_login', isEnabled: true, config: ['email'] }])), getAllowedOrigins }
    await initProjectConfig({ api: on, projectId: 'p', localFeatures: undefined, alerts: alerts(), origin: 'https://dapp.example' })
    expect(getAllowedOrigins).toHaveBeenCalledOnce()
  })

  it('analytics config failure means off', async () => {
    expect(await fetchAnalyticsEnabled({ getAnalyticsConfig: () => Promise.reject(new Error('x')) })).toBe(false)
    expect(await fetchAnalyticsEnabled({ getAnalyticsConfig: async () => true })).toBe(true)
  })
})
