import { describe, expect, it, vi } from 'vitest'
import { defineChain } from 'viem'
import { createLatch } from './latch'
import { LatchOptionsError } from './options'

const dev = defineChain({
  id: 31337,
  name: 'Latch Dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})

describe('createLatch', () => {
  it('is created on the server (no window) and starts closed at Connect, disconnected', () => {
    expect(typeof window).toBe('undefined')
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1' })
    const s = latch.getState()
    expect(s.open).toBe(false)
    expect(s.view).toBe('Connect')
    expect(s.account.status).toBe('disconnected')
    expect(s.activeNetwork.id).toBe(31337)
    expect(s.canClose).toBe(true)
    expect(s.themeMode).toBe('light')
    expect(s.themeVars['--latch-z-index']).toBeDefined()
    latch.destroy()
  })

  it('keeps every capability state in one root store, and LatchState is derived from it', () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1' })
    const { root, modal, router, theme, network, connection, slice } = latch._internal
    expect(Object.keys(root.getState()).sort()).toEqual(
      ['accountData', 'alerts', 'connection', 'events', 'instance', 'locale', 'modal', 'network', 'options', 'router', 'theme', 'toasts', 'walletConnect'].sort(),
    )
    // Each controller's store is its slice of the root: the same snapshot, written through the root.
    expect(modal.store.getState()).toBe(root.getState().modal)
    expect(router.store.getState()).toBe(root.getState().router)
    expect(network.store.getState()).toBe(root.getState().network)
    expect(connection.getState()).toBe(root.getState().connection)
    expect(slice.getState()).toBe(root.getState().instance)
    const seen: string[] = []
    const unsubscribe = latch.subscribe((s) => seen.push(s.themeMode))
    theme.setThemeMode('dark')
    expect(root.getState().theme.themeMode).toBe('dark')
    expect(latch.getState().themeMode).toBe('dark')
    expect(seen).toEqual(['dark'])
    // A root change LatchState does not show keeps its snapshot and tells no one.
    const before = latch.getState()
    latch._internal.events.sendEvent({ type: 'track', event: 'MODAL_OPEN', properties: {} } as never)
    const after = latch.getState()
    expect(Object.keys(after).filter((k) => (after as any)[k] !== (before as any)[k])).toEqual([])
    expect(latch.getState()).toBe(before)
    expect(seen).toEqual(['dark'])
    unsubscribe()
    latch.destroy()
  })

  it('rejects invalid options with the option named', () => {
    expect(() => createLatch({ networks: [] })).toThrow(LatchOptionsError)
    expect(() => createLatch({ networks: [dev], siwx: {} as never, ...{ siweConfig: {} } })).toThrow('Cannot set both `siweConfig` and `siwx` options')
  })

  it('opens even when latchd cannot be reached (prefetch failure is logged), and goBack at one view closes', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1' })
    const seen: string[] = []
    const unsubscribe = latch.subscribeEvents((e) => seen.push(e.data.event))
    latch.open({ view: 'AllWallets' })
    await vi.waitFor(() => expect(latch.getState().open).toBe(true))
    expect(latch.getState().view).toBe('AllWallets')
    expect(seen).toContain('MODAL_OPEN')
    latch.goBack()
    expect(latch.getState().open).toBe(false)
    unsubscribe()
    latch.destroy()
    fetchMock.mockRestore()
    warn.mockRestore()
  })

  it('connecting a wallet that is not installed shows why instead of hanging', async () => {
    // Without WalletConnect (which would offer a pairing instead) nothing on the page can connect it.
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false })
    await latch.connectWallet({ id: 'x', name: 'Nowhere Wallet', kind: 'recommended', installed: false })
    expect(latch.getState().view).toBe('ConnectingExternal')
    expect(latch.getState().connectError).toEqual({ kind: 'unknown', message: 'Nowhere Wallet is not installed' })
    latch.destroy()
  })

  it('the connect failure is in the active locale; its kind is not', async () => {
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false })
    await latch.setLocale('de')
    await latch.connectWallet({ id: 'x', name: 'Nowhere Wallet', kind: 'recommended', installed: false })
    expect(latch.getState().connectError).toEqual({ kind: 'unknown', message: 'Nowhere Wallet ist nicht installiert' })
    latch.destroy()
  })
})
