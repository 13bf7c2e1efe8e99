import { describe, expect, it, vi } from 'vitest'
import {
  canCloseModal,
  cancelSignIn,
  createRouterController,
  shouldShowUnsupportedChain,
  signInCancelOutcome,
  viewAfterEmbeddedClose,
  viewOnOpen,
  type RouterHooks,
  type UnsupportedChainContext,
} from './router'

function setup(overrides: Partial<RouterHooks> = {}) {
  const hooks = { closeModal: vi.fn(), isConnected: vi.fn(() => false), resetAuthProvider: vi.fn(), ...overrides }
  return { router: createRouterController(hooks), hooks }
}
const views = (r: ReturnType<typeof setup>['router']) => r.store.getState().stack.map((route) => route.view)

describe('router stack (spec §2)', () => {
  it('starts at Connect', () => {
    const { router } = setup()
    expect(router.store.getState().view).toBe('Connect')
    expect(views(router)).toEqual(['Connect'])
  })

  it('push adds a view carrying data', () => {
    const { router } = setup()
    const wallet = { id: 'w1', name: 'Wallet One', kind: 'recommended' as const, installed: false }
    router.push('ConnectingExternal', { wallet })
    expect(views(router)).toEqual(['Connect', 'ConnectingExternal'])
    expect(router.store.getState().data?.wallet?.id).toBe('w1')
  })

  it('replace swaps the top view', () => {
    const { router } = setup()
    router.push('AllWallets')
    router.replace('ConnectingWalletConnect')
    expect(views(router)).toEqual(['Connect', 'ConnectingWalletConnect'])
  })

  it('reset leaves one view', () => {
    const { router } = setup()
    router.push('AllWallets')
    router.reset('Account')
    expect(views(router)).toEqual(['Account'])
  })

  it('goBack pops one view and restores its data', () => {
    const { router, hooks } = setup()
    router.push('AllWallets', { caipNetworkId: 'eip155:1' })
    router.push('ConnectingWalletConnect')
    router.goBack()
    expect(router.store.getState()).toMatchObject({ view: 'AllWallets', data: { caipNetworkId: 'eip155:1' } })
    expect(hooks.closeModal).not.toHaveBeenCalled()
  })

  it('goBack with one view left closes the modal', () => {
    const { router, hooks } = setup()
    router.goBack()
    expect(hooks.closeModal).toHaveBeenCalledOnce()
    expect(views(router)).toEqual(['Connect'])
  })

  it('goBackToIndex keeps the views up to the index', () => {
    const { router } = setup()
    router.push('AllWallets')
    router.push('ConnectingWalletConnect')
    router.push('WhatIsAWallet')
    router.goBackToIndex(1)
    expect(views(router)).toEqual(['Connect', 'AllWallets'])
  })

  it('goBackTo returns to the last place of a view in one update, or makes it the only view', () => {
    const { router } = setup()
    router.reset('Account')
    router.push('WalletSend')
    router.push('WalletSendPreview')
    const updates = vi.fn()
    router.store.subscribe(updates)
    router.goBackTo('Account')
    expect(views(router)).toEqual(['Account'])
    expect(updates).toHaveBeenCalledOnce()
    router.reset('Networks')
    router.goBackTo('Account')
    expect(views(router)).toEqual(['Account'])
  })

  it('going back from Farcaster while unconnected resets the auth provider', () => {
    const { router, hooks } = setup()
    router.push('ConnectingFarcaster')
    router.goBack()
    expect(hooks.resetAuthProvider).toHaveBeenCalledOnce()
    const connected = setup({ isConnected: () => true })
    connected.router.push('ConnectingFarcaster')
    connected.router.goBack()
    expect(connected.hooks.resetAuthProvider).not.toHaveBeenCalled()
  })
})

describe('opening rules (spec §2)', () => {
  const base = { isConnected: false, hasAdapters: true, isMobile: false }

  it('open shows Account when connected, otherwise Connect', () => {
    expect(viewOnOpen({ ...base, isConnected: true })).toBe('Account')
    expect(viewOnOpen(base)).toBe('Connect')
  })

  it('no adapters and no address: AllWallets on mobile, ConnectingWalletConnectBasic on desktop', () => {
    expect(viewOnOpen({ ...base, hasAdapters: false, isMobile: true })).toBe('AllWallets')
    expect(viewOnOpen({ ...base, hasAdapters: false, isMobile: false })).toBe('ConnectingWalletConnectBasic')
  })

  it('Networks is not offered with network switching off', () => {
    expect(viewOnOpen({ ...base, requestedView: 'Networks', enableNetworkSwitch: false })).toBe('Connect')
    expect(viewOnOpen({ ...base, isConnected: true, requestedView: 'Networks', enableNetworkSwitch: false })).toBe('Account')
    expect(viewOnOpen({ ...base, requestedView: 'Account', enableNetworkSwitch: false })).toBe('Account')
    expect(viewOnOpen({ ...base, requestedView: 'Networks', enableNetworkSwitch: true })).toBe('Networks')
  })

  it('an explicit view wins', () => {
    expect(viewOnOpen({ ...base, isConnected: true, requestedView: 'Networks' })).toBe('Networks')
  })

  it('closing in embedded mode returns to Account when connected, else Connect', () => {
    expect(viewAfterEmbeddedClose({ isConnected: true })).toBe('Account')
    expect(viewAfterEmbeddedClose({ isConnected: false })).toBe('Connect')
  })

  it('UnsupportedChain opens only when every condition holds', () => {
    const unsupported: UnsupportedChainContext = {
      activeCaipNetworkId: 'eip155:5',
      requestedCaipNetworkIds: ['eip155:1', 'eip155:10'],
      enableNetworkSwitch: true,
      allowUnsupportedChain: false,
      hasBasicPairingSession: false,
    }
    expect(shouldShowUnsupportedChain(unsupported)).toBe(true)
    expect(shouldShowUnsupportedChain({ ...unsupported, activeCaipNetworkId: 'eip155:10' })).toBe(false)
    expect(shouldShowUnsupportedChain({ ...unsupported, enableNetworkSwitch: false })).toBe(false)
    expect(shouldShowUnsupportedChain({ ...unsupported, allowUnsupportedChain: true })).toBe(false)
    expect(shouldShowUnsupportedChain({ ...unsupported, hasBasicPairingSession: true })).toBe(false)
    expect(shouldShowUnsupportedChain({ ...unsupported, activeCaipNetworkId: undefined })).toBe(false)
  })

  it('the sign-message view cannot be closed when sign-in is required and no session exists', () => {
    expect(canCloseModal({ view: 'SIWXSignMessage', siwxRequired: true, hasSiwxSession: false })).toBe(false)
    expect(canCloseModal({ view: 'SIWXSignMessage', siwxRequired: true, hasSiwxSession: true })).toBe(true)
    expect(canCloseModal({ view: 'SIWXSignMessage', siwxRequired: false, hasSiwxSession: false })).toBe(true)
    expect(canCloseModal({ view: 'Account', siwxRequired: true, hasSiwxSession: false })).toBe(true)
  })

  it('cancelling sign-in disconnects if required, else closes; either way resets to Connect', async () => {
    expect(signInCancelOutcome({ siwxRequired: true })).toEqual({ disconnect: true, closeModal: false, resetTo: 'Connect' })
    expect(signInCancelOutcome({ siwxRequired: false })).toEqual({ disconnect: false, closeModal: true, resetTo: 'Connect' })

    const { router } = setup()
    router.push('SIWXSignMessage')
    const disconnect = vi.fn(() => Promise.reject(new Error('wallet gone')))
    const closeModal = vi.fn()
    await expect(cancelSignIn({ siwxRequired: true }, { router, disconnect, closeModal })).rejects.toThrow('wallet gone')
    expect(views(router)).toEqual(['Connect'])
    expect(closeModal).not.toHaveBeenCalled()
  })
})
