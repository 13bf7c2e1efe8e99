// @vitest-environment node
import { describe, expect, it } from 'vitest'

describe('SSR safety', () => {
  it('imports every controller module in Node without window, document or localStorage', async () => {
    expect(typeof globalThis.window).toBe('undefined')
    expect(typeof globalThis.document).toBe('undefined')
    const core = await import('./controllers')
    expect(typeof core.createStore).toBe('function')
    expect(typeof core.createRouterController).toBe('function')
    // Constructing the controllers must not touch browser globals either.
    const router = core.createRouterController({ closeModal: () => {}, isConnected: () => false })
    expect(router.store.getState().view).toBe('Connect')
    expect(core.createRecentWallets().get()).toEqual([])
    expect(core.createThemeController().store.getState().themeMode).toBe('light')
    expect(core.isMobileUserAgent()).toBe(false)
    const telemetry = core.createTelemetry({
      api: { sendEvents: async () => {}, sendError: async () => {} },
      bus: core.createEventBus(),
      isAnalyticsEnabled: () => true,
    })
    await telemetry.stop()
  })
})
