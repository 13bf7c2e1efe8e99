// Startup restore and wallet events with EIP-6963 wallets on a fake window:
// the created wagmi config, the injected connector, a scripted EIP-1193 wallet.
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { type ConnectionController, createConnectionController } from './controller.js'
import { createMemoryStorage } from '../storage'
import { storageKeys } from './storage.js'
import { alice, bob, createFakeWallet, type FakeWallet, installFakeWindow, walletIcon } from './test/fakeWallet.js'
import type { ConnectionStatus, StorageLike } from './types.js'

const networks = [mainnet, sepolia] as const
const rdns = 'io.latch.testwallet'
const promptMethods = ['eth_requestAccounts', 'wallet_requestPermissions']

let removeWindow: () => void
const controllers: ConnectionController[] = []

beforeEach(() => {
  removeWindow = installFakeWindow()
})
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.destroy()
  removeWindow()
})

/** A "page load": a fresh window with the wallet extension, and a controller over `storage`. */
function load(
  storage: StorageLike,
  wallet: FakeWallet | undefined,
  options: { announcementTimeoutMs?: number; enableReconnect?: boolean } = {},
) {
  removeWindow()
  removeWindow = installFakeWindow()
  wallet?.announce()
  const controller = createConnectionController({ networks, storage, announcementTimeoutMs: 50, ...options })
  controllers.push(controller)
  const statuses: ConnectionStatus[] = []
  controller.subscribe((state, previous) => {
    if (state.namespaces.eip155.status !== previous.namespaces.eip155.status) {
      statuses.push(state.namespaces.eip155.status)
    }
  })
  return { controller, statuses }
}

/** Connects `wallet` on a first page load and returns the storage it left behind. */
async function connectOnce(wallet = createFakeWallet()) {
  const storage = createMemoryStorage()
  const { controller } = load(storage, wallet)
  await controller.init()
  await controller.connect(rdns)
  controller.destroy()
  return storage
}

describe('connectors', () => {
  it('lists announced wallets with their icon, also when they announce late', async () => {
    const { controller } = load(createMemoryStorage(), createFakeWallet())
    expect(controller.getState().connectors).toEqual([
      { id: rdns, name: 'Test Wallet', icon: walletIcon, rdns, type: 'ANNOUNCED', namespace: 'eip155' },
    ])

    let notified = 0
    controller.subscribe(() => notified++)
    createFakeWallet({ rdns: 'com.example.late', name: 'Late Wallet' }).announce()

    expect(controller.getState().connectors.map((c) => c.id)).toEqual([rdns, 'com.example.late'])
    expect(notified).toBe(1)
  })
})

describe('connect with an injected wallet', () => {
  it('maps a 4001 from the wallet to user_rejected and falls back to the previous connection', async () => {
    const first = createFakeWallet()
    const second = createFakeWallet({ rdns: 'com.example.other', name: 'Other', accounts: [bob] })
    const { controller } = load(createMemoryStorage(), first)
    second.announce()
    await controller.init()
    await controller.connect(rdns)
    const before = controller.getState()

    second.failNextPrompt({ code: 4001, message: 'User rejected the request.' })
    await expect(controller.connect('com.example.other')).rejects.toMatchObject({ kind: 'user_rejected' })

    expect(controller.getState()).toEqual(before)
    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice })
  })

  it('switches to the remaining connection when the current one disconnects (spec §4)', async () => {
    const storage = createMemoryStorage()
    const other = createFakeWallet({ rdns: 'com.example.other', name: 'Other', accounts: [bob] })
    const { controller } = load(storage, createFakeWallet())
    other.announce()
    await controller.connect(rdns)
    await controller.connect('com.example.other')
    expect(controller.getState().namespaces.eip155.address).toBe(bob)

    await controller.disconnect()

    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice, connectorId: rdns })
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBe(rdns)
  })
})

describe('init (page reload, spec §4)', () => {
  it('restores the connection silently: reconnecting → connected, same address, no prompt', async () => {
    const storage = await connectOnce()
    const wallet = createFakeWallet({ authorized: true })
    const { controller, statuses } = load(storage, wallet)

    const init = controller.init()
    expect(controller.getState().namespaces.eip155).toMatchObject({
      status: 'reconnecting',
      address: alice, // from the cached CAIP address, so the button does not flicker
      connectorId: rdns,
    })
    await init

    expect(statuses).toEqual(['reconnecting', 'connected'])
    expect(controller.getState().namespaces.eip155).toMatchObject({
      status: 'connected',
      address: alice,
      caipAddress: `eip155:1:${alice}`,
      connectorId: rdns,
      wallet: { name: 'Test Wallet', icon: walletIcon, rdns },
    })
    expect(wallet.calls).toContain('eth_accounts')
    expect(wallet.calls.filter((m) => promptMethods.includes(m))).toEqual([])
  })

  it('waits for a wallet that announces after startup', async () => {
    const storage = await connectOnce()
    const wallet = createFakeWallet({ authorized: true })
    const { controller } = load(storage, undefined, { announcementTimeoutMs: 1_000 })

    const init = controller.init()
    setTimeout(() => wallet.announce(), 30)
    await init

    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice })
    expect(wallet.calls.filter((m) => promptMethods.includes(m))).toEqual([])
  })

  it('ends disconnected and clears storage when the wallet is gone', async () => {
    const storage = await connectOnce()
    const { controller, statuses } = load(storage, undefined)

    await controller.init()

    expect(statuses).toEqual(['reconnecting', 'disconnected'])
    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'disconnected', address: undefined })
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
    expect(storage.getItem(storageKeys.cachedCaipAddress('eip155'))).toBeNull()
    expect(storage.getItem(storageKeys.connectedNamespaces)).toBeNull()
  })

  it('ends disconnected when the wallet no longer authorises the site', async () => {
    const storage = await connectOnce()
    const wallet = createFakeWallet({ authorized: false })
    const { controller } = load(storage, wallet)

    await controller.init()

    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
    expect(wallet.calls.filter((m) => promptMethods.includes(m))).toEqual([])
  })

  it('a stored disconnected status clears the cached address', async () => {
    const storage = createMemoryStorage()
    storage.setItem(storageKeys.connectionStatus('eip155'), 'disconnected')
    storage.setItem(storageKeys.cachedCaipAddress('eip155'), `eip155:1:${alice}`)
    const { controller, statuses } = load(storage, createFakeWallet({ authorized: true }))

    await controller.init()

    expect(statuses).toEqual([])
    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(storage.getItem(storageKeys.cachedCaipAddress('eip155'))).toBeNull()
  })

  it('does not reconnect after disconnect()', async () => {
    const storage = createMemoryStorage()
    const first = load(storage, createFakeWallet())
    await first.controller.connect(rdns)
    await first.controller.disconnect()
    first.controller.destroy()

    const wallet = createFakeWallet({ authorized: true })
    const { controller, statuses } = load(storage, wallet)
    await controller.init()

    expect(statuses).toEqual([])
    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(wallet.calls).toEqual([])
  })

  it('skips the restore when enableReconnect is false', async () => {
    const storage = await connectOnce()
    const wallet = createFakeWallet({ authorized: true })
    const { controller, statuses } = load(storage, wallet, { enableReconnect: false })

    await controller.init()

    expect(statuses).toEqual([])
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(wallet.calls.filter((m) => promptMethods.includes(m))).toEqual([])
  })

  it('returns the same promise when called twice', async () => {
    const { controller } = load(createMemoryStorage(), undefined)
    expect(controller.init()).toBe(controller.init())
  })
})

describe('wallet events', () => {
  async function connected() {
    const storage = createMemoryStorage()
    const wallet = createFakeWallet()
    const { controller } = load(storage, wallet)
    await controller.init()
    await controller.connect(rdns)
    return { storage, wallet, controller }
  }

  it('accountsChanged updates the address and the stored CAIP address', async () => {
    const { storage, wallet, controller } = await connected()

    wallet.setAccounts([bob])
    wallet.emit('accountsChanged', [bob.toLowerCase()])
    await Promise.resolve()

    expect(controller.getState().namespaces.eip155).toMatchObject({ address: bob, caipAddress: `eip155:1:${bob}` })
    expect(storage.getItem(storageKeys.cachedCaipAddress('eip155'))).toBe(`eip155:1:${bob}`)
  })

  it('chainChanged updates the chain', async () => {
    const { wallet, controller } = await connected()

    wallet.setChainId(sepolia.id)
    wallet.emit('chainChanged', `0x${sepolia.id.toString(16)}`)

    expect(controller.getState().namespaces.eip155).toMatchObject({
      chainId: sepolia.id,
      caipAddress: `eip155:${sepolia.id}:${alice}`,
    })
  })

  it('a disconnect from the wallet ends disconnected and clears storage', async () => {
    const { storage, wallet, controller } = await connected()

    wallet.emit('disconnect', { code: 4900, message: 'Disconnected' })
    await new Promise((resolve) => setTimeout(resolve, 0))

    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
  })
})
