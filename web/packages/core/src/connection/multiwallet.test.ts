// Multi-wallet (issue 26): several wallets connected in eip155 at once, one
// active; switching, disconnecting one, the list after a reload. EIP-6963
// wallets on a fake window over the controller's own wagmi config.
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { allAccounts, listConnections, watchConnectionList } from './connections.js'
import { type ConnectionController, createConnectionController } from './controller.js'
import { LatchConnectError } from './errors.js'
import { disconnectWalletConnection, switchWalletConnection } from './multiWallet.js'
import { createMemoryStorage } from '../storage'
import { storageKeys } from './storage.js'
import { alice, bob, createFakeWallet, type FakeWallet, installFakeWindow, walletIcon } from './test/fakeWallet.js'
import type { StorageLike } from './types.js'

const networks = [mainnet, sepolia] as const
const first = 'io.latch.testwallet'
const second = 'com.example.other'
const carol = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const

let removeWindow: () => void
const controllers: ConnectionController[] = []

beforeEach(() => {
  removeWindow = installFakeWindow()
})
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.destroy()
  removeWindow()
})

/** A page load with both wallet extensions installed, over `storage`. */
function load(storage: StorageLike, wallets: { a?: FakeWallet; b?: FakeWallet } = {}) {
  removeWindow()
  removeWindow = installFakeWindow()
  const a = wallets.a ?? createFakeWallet()
  const b = wallets.b ?? createFakeWallet({ rdns: second, name: 'Other', accounts: [bob, carol], chainId: sepolia.id })
  a.announce()
  b.announce()
  const controller = createConnectionController({ networks, storage, announcementTimeoutMs: 50 })
  controllers.push(controller)
  return { controller, a, b }
}

/** Connects the first wallet, then the second (which becomes active). */
async function connectBoth(storage: StorageLike = createMemoryStorage()) {
  const page = load(storage)
  await page.controller.init()
  await page.controller.connect(first)
  await page.controller.connect(second)
  return { ...page, storage }
}

const ids = (controller: ConnectionController) =>
  listConnections(controller, 'eip155').map((c) => [c.connectorId, c.isActive])

describe('several connections in eip155', () => {
  it('connecting a second wallet keeps the first; the new one is active and drives the account', async () => {
    const { controller } = await connectBoth()

    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: bob, connectorId: second })
    expect(listConnections(controller, 'eip155')).toEqual([
      { namespace: 'eip155', connectorId: second, name: 'Other', icon: walletIcon, rdns: second, accounts: [bob, carol], chainId: sepolia.id, isActive: true },
      { namespace: 'eip155', connectorId: first, name: 'Test Wallet', icon: walletIcon, rdns: first, accounts: [alice], chainId: 1, isActive: false },
    ])
    expect(allAccounts(controller, 'eip155')).toEqual([bob, carol, alice])
  })

  it('switchConnection makes another connection active without a prompt, and it is stored as the active one', async () => {
    const { controller, a, storage } = await connectBoth()
    const callsBefore = a.calls.length

    await switchWalletConnection(controller, first)

    expect(controller.getState().namespaces.eip155).toMatchObject({ address: alice, chainId: 1, connectorId: first, caipAddress: `eip155:1:${alice}` })
    expect(ids(controller)).toEqual([[first, true], [second, false]])
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBe(first)
    expect(a.calls.slice(callsBefore)).not.toContain('eth_requestAccounts')
  })

  it('switchConnection rejects for a wallet that is not connected', async () => {
    const { controller } = await connectBoth()
    await expect(switchWalletConnection(controller, 'com.example.none')).rejects.toBeInstanceOf(LatchConnectError)
  })

  it('connecting a wallet that is already connected beside the active one switches to it without a prompt', async () => {
    const { controller, a } = await connectBoth()
    const callsBefore = a.calls.length

    const result = await controller.connect(first)

    expect(result).toMatchObject({ address: alice, connectorId: first })
    expect(a.calls.slice(callsBefore)).not.toContain('eth_requestAccounts')
    expect(ids(controller)).toEqual([[first, true], [second, false]])
  })

  it('disconnectConnection of an inactive wallet leaves the active one untouched', async () => {
    const { controller } = await connectBoth()

    await disconnectWalletConnection(controller, first)

    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: bob, connectorId: second })
    expect(ids(controller)).toEqual([[second, true]])
  })

  it('disconnectConnection of the active wallet makes the other active; the last one leaves the namespace disconnected', async () => {
    const { controller, storage } = await connectBoth()

    await disconnectWalletConnection(controller, second)
    expect(controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice, connectorId: first })
    expect(ids(controller)).toEqual([[first, true]])
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBe(first)

    await disconnectWalletConnection(controller, first)
    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(listConnections(controller, 'eip155')).toEqual([])
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('disconnected')
  })

  it('an inactive wallet switching account updates its entry, not the account; watchConnectionList reports it', async () => {
    const { controller, a } = await connectBoth()
    let changes = 0
    watchConnectionList(controller, () => changes++)

    a.emit('accountsChanged', [carol])
    await new Promise((resolve) => setTimeout(resolve, 0))

    expect(listConnections(controller, 'eip155').find((c) => c.connectorId === first)?.accounts).toEqual([carol])
    expect(controller.getState().namespaces.eip155.address).toBe(bob)
    expect(changes).toBeGreaterThan(0)
  })

  it('a connection wagmi restored from storage but nothing reconnected is not listed', async () => {
    const { controller } = await connectBoth()
    const config = controller.getWagmiConfig()
    // What wagmi's storage hydrates: the connector's id, name, type and uid only.
    const stale = { id: 'com.example.gone', name: 'Gone', type: 'injected', uid: 'stale' } as unknown as ReturnType<typeof config.connectors.at> & object
    config.setState((x) => ({ ...x, connections: new Map(x.connections).set('stale', { accounts: [carol], chainId: 1, connector: stale }) }))

    expect(ids(controller)).toEqual([[second, true], [first, false]])
  })
})

describe('after a reload', () => {
  it('both connections come back, the stored active one active, without a prompt', async () => {
    const { controller, storage } = await connectBoth()
    await switchWalletConnection(controller, first)
    controller.destroy()

    const a = createFakeWallet({ authorized: true })
    const b = createFakeWallet({ rdns: second, name: 'Other', accounts: [bob, carol], chainId: sepolia.id, authorized: true })
    const reloaded = load(storage, { a, b })
    await reloaded.controller.init()

    expect(reloaded.controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice, connectorId: first })
    expect(ids(reloaded.controller)).toEqual([[first, true], [second, false]])
    expect([...a.calls, ...b.calls]).not.toContain('eth_requestAccounts')
  })

  it("also when a wallet's EIP-1193 'connect' event has made wagmi connect it alone first", async () => {
    const { controller, storage } = await connectBoth()
    await switchWalletConnection(controller, first)
    controller.destroy()

    const a = createFakeWallet({ authorized: true })
    const b = createFakeWallet({ rdns: second, name: 'Other', accounts: [bob, carol], chainId: sepolia.id, authorized: true })
    const reloaded = load(storage, { a, b })
    // An extension announces it can serve requests once the page has loaded; wagmi connects that wallet on it.
    await new Promise((resolve) => setTimeout(resolve, 0))
    a.emit('connect' as 'disconnect', { chainId: '0x1' })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(reloaded.controller.getWagmiConfig().state.status).toBe('connected')
    await reloaded.controller.init()

    expect(reloaded.controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice, connectorId: first })
    expect(ids(reloaded.controller)).toEqual([[first, true], [second, false]])
  })

  it("also when a WagmiProvider without reconnectOnMount emptied wagmi's restored connections before init", async () => {
    const { controller, storage } = await connectBoth()
    controller.destroy()

    const reloaded = load(storage, {
      a: createFakeWallet({ authorized: true }),
      b: createFakeWallet({ rdns: second, name: 'Other', accounts: [bob, carol], chainId: sepolia.id, authorized: true }),
    })
    // What wagmi's hydrate().onMount does, once its store has hydrated, when it is not to reconnect.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(reloaded.controller.getWagmiConfig().state.connections.size).toBe(2)
    reloaded.controller.getWagmiConfig().setState((x) => ({ ...x, connections: new Map() }))
    await reloaded.controller.init()

    expect(ids(reloaded.controller)).toEqual([[second, true], [first, false]])
  })

  it('a wallet that no longer authorises the site is left out; the others are restored', async () => {
    const { controller, storage } = await connectBoth()
    controller.destroy()

    const a = createFakeWallet({ authorized: false })
    const b = createFakeWallet({ rdns: second, name: 'Other', accounts: [bob, carol], chainId: sepolia.id, authorized: true })
    const reloaded = load(storage, { a, b })
    await reloaded.controller.init()

    expect(reloaded.controller.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: bob })
    expect(ids(reloaded.controller)).toEqual([[second, true]])
  })
})
