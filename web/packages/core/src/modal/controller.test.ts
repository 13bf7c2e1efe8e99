import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEventBus, type LatchEventData } from '../events'
import { createModalController, MODAL_SHAKE_MS, type ModalContext } from './controller'
import { createRouterController } from './router'

function setup(ctx: Partial<ModalContext> = {}, prefetch?: () => Promise<void>) {
  const context: ModalContext = {
    isConnected: false,
    hasAdapters: true,
    isMobile: false,
    enableNetworkSwitch: true,
    enableEmbedded: false,
    siwxRequired: false,
    hasSiwxSession: false,
    ...ctx,
  }
  const events = createEventBus()
  const seen: LatchEventData[] = []
  events.subscribeEvents((e) => seen.push(e))
  const router = createRouterController({ closeModal: () => modal.close(), isConnected: () => context.isConnected })
  const modal = createModalController({ router, context: () => context, events, ...(prefetch ? { prefetch } : {}) })
  return { modal, router, context, seen }
}

describe('modal controller', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('is loading while prefetching, then opens on the view the rules pick', async () => {
    let release!: () => void
    const { modal, router, seen } = setup({ isConnected: true }, () => new Promise<void>((r) => (release = r)))
    const opened = modal.open()
    expect(modal.store.getState()).toMatchObject({ loading: true, open: false })
    release()
    await opened
    expect(modal.store.getState()).toMatchObject({ loading: false, open: true })
    expect(router.store.getState().view).toBe('Account')
    expect(seen.map((e) => e.event)).toEqual(['MODAL_OPEN'])
  })

  it('opens on an explicit view with its data', async () => {
    const { modal, router } = setup()
    await modal.open({ view: 'Networks', data: { caipNetworkId: 'eip155:1' } })
    expect(router.store.getState()).toMatchObject({ view: 'Networks', data: { caipNetworkId: 'eip155:1' } })
  })

  it('close closes, resets to Connect and reports MODAL_CLOSE', async () => {
    const { modal, router, seen } = setup()
    await modal.open()
    router.push('AllWallets')
    expect(modal.close()).toBe(true)
    expect(modal.store.getState().open).toBe(false)
    expect(router.store.getState().stack.map((r) => r.view)).toEqual(['Connect'])
    expect(seen.map((e) => e.event)).toEqual(['MODAL_OPEN', 'MODAL_CLOSE'])
  })

  it('going back from the last view closes the modal', async () => {
    const { modal, router } = setup()
    await modal.open()
    router.goBack()
    expect(modal.store.getState().open).toBe(false)
  })

  it('closing in embedded mode returns to Account when connected', async () => {
    const { modal, router } = setup({ enableEmbedded: true, isConnected: true })
    await modal.open({ view: 'Networks' })
    modal.close()
    expect(router.store.getState().view).toBe('Account')
  })

  it('refuses to close a required sign-in and shakes for 500 ms', async () => {
    const { modal, router } = setup({ siwxRequired: true })
    await modal.open({ view: 'SIWXSignMessage' })
    expect(modal.close()).toBe(false)
    expect(modal.store.getState()).toMatchObject({ open: true, shake: true })
    expect(router.store.getState().view).toBe('SIWXSignMessage')
    vi.advanceTimersByTime(MODAL_SHAKE_MS - 1)
    expect(modal.store.getState().shake).toBe(true)
    vi.advanceTimersByTime(1)
    expect(modal.store.getState().shake).toBe(false)
  })

  it('opens even when prefetching fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { modal } = setup({}, () => Promise.reject(new Error('offline')))
    await modal.open()
    expect(modal.store.getState().open).toBe(true)
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })
})
