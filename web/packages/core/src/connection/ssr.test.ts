// Server-side rendering: no window, no storage.
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'

describe('without a window (SSR)', () => {
  it('imports, creates a controller and initialises without throwing', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const { createConnectionController } = await import('./index.js')

    const controller = createConnectionController({ networks: [mainnet] })
    await controller.init()

    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(controller.getState().connectors).toEqual([])
    await expect(controller.connect('injected')).rejects.toMatchObject({ kind: 'unknown' })
    controller.destroy()
  })
})
