// connect()/disconnect() against wagmi's mock connector (no window needed).
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { describe, expect, it } from 'vitest'

import { createConnectionController } from './controller.js'
import { LatchConnectError, LatchDisconnectError } from './errors.js'
import { createMemoryStorage } from '../storage'
import { storageKeys } from './storage.js'
import { alice } from './test/fakeWallet.js'
import type { ConnectionStatus, StorageLike } from './types.js'

const networks = [mainnet, sepolia] as const

/** A transport that answers eth_getBalance with 1.23456789 ETH and fails everything else. */
const rpc = custom({
  async request({ method }: { method: string }) {
    if (method === 'eth_getBalance') return '0x112210f4768db400' // 1_234_567_890_000_000_000 wei
    throw new Error(`unexpected ${method}`)
  },
})

function setup(features?: Parameters<typeof mock>[0]['features'], storage: StorageLike = createMemoryStorage()) {
  const wagmiConfig = createConfig({
    chains: networks,
    connectors: [mock({ accounts: [alice], features })],
    storage: null,
    // getBalance would otherwise go through a multicall eth_call.
    batch: { multicall: false },
    transports: { [mainnet.id]: rpc, [sepolia.id]: rpc },
  })
  const controller = createConnectionController({ networks, wagmiConfig, storage })
  const statuses: ConnectionStatus[] = []
  controller.subscribe((state, previous) => {
    if (state.namespaces.eip155.status !== previous.namespaces.eip155.status) {
      statuses.push(state.namespaces.eip155.status)
    }
  })
  return { controller, storage, statuses }
}

describe('connect', () => {
  it('goes connecting → connected and persists the connection', async () => {
    const { controller, storage, statuses } = setup()
    await controller.init()

    const result = await controller.connect('mock')

    expect(statuses).toEqual(['connecting', 'connected'])
    expect(result).toEqual({
      status: 'connected',
      address: alice,
      caipAddress: `eip155:1:${alice}`,
      chainId: 1,
      connectorId: 'mock',
      wallet: { name: 'Mock Connector', icon: undefined, rdns: undefined },
    })
    expect(controller.getState().namespaces.eip155).toBe(result)
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('connected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBe('mock')
    expect(storage.getItem(storageKeys.connectedNamespaces)).toBe('eip155')
    expect(storage.getItem(storageKeys.cachedCaipAddress('eip155'))).toBe(`eip155:1:${alice}`)
    controller.destroy()
  })

  it('switches to the requested chain', async () => {
    const { controller } = setup()
    const result = await controller.connect('mock', { chainId: sepolia.id })
    expect(result.caipAddress).toBe(`eip155:${sepolia.id}:${alice}`)
    controller.destroy()
  })

  it('maps a user rejection to kind user_rejected and restores the previous state', async () => {
    const { controller, storage, statuses } = setup({ connectError: true })
    await controller.init()
    const before = controller.getState()

    const error = await controller.connect('mock').catch((e: unknown) => e)

    expect(error).toBeInstanceOf(LatchConnectError)
    expect((error as LatchConnectError).kind).toBe('user_rejected')
    expect((error as LatchConnectError).code).toBe(4001)
    expect(statuses).toEqual(['connecting', 'disconnected'])
    expect(controller.getState()).toEqual(before)
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
    controller.destroy()
  })

  it('reports other failures as kind unknown with the original message', async () => {
    const { controller } = setup({ connectError: new Error('Wallet exploded') })

    const error = await controller.connect('mock').catch((e: unknown) => e)

    expect(error).toMatchObject({ kind: 'unknown', message: 'Wallet exploded' })
    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    controller.destroy()
  })

  it('rejects an unknown connector id', async () => {
    const { controller } = setup()
    await expect(controller.connect('nope')).rejects.toMatchObject({ kind: 'unknown', message: 'Connector not found: nope' })
    controller.destroy()
  })

  it('is a no-op when the connector is already connected', async () => {
    const { controller, statuses } = setup()
    await controller.connect('mock')
    await controller.connect('mock')
    expect(statuses).toEqual(['connecting', 'connected'])
    controller.destroy()
  })
})

describe('disconnect', () => {
  it('clears state and storage', async () => {
    const { controller, storage } = setup()
    await controller.connect('mock')

    await controller.disconnect('eip155')

    expect(controller.getState().namespaces.eip155).toMatchObject({
      status: 'disconnected',
      address: undefined,
      caipAddress: undefined,
      connectorId: undefined,
    })
    expect(storage.getItem(storageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
    expect(storage.getItem(storageKeys.connectedNamespaces)).toBeNull()
    expect(storage.getItem(storageKeys.cachedCaipAddress('eip155'))).toBeNull()
    controller.destroy()
  })

  it('clears local state and throws DISCONNECT_ERROR when the wallet fails', async () => {
    const { controller, storage } = setup()
    await controller.connect('mock')
    const [connector] = controller.getWagmiConfig().connectors
    if (!connector) throw new Error('no connector')
    connector.disconnect = () => Promise.reject(new Error('wallet busy'))

    const error = await controller.disconnect().catch((e: unknown) => e)

    expect(error).toBeInstanceOf(LatchDisconnectError)
    expect(error).toMatchObject({ event: 'DISCONNECT_ERROR', message: 'wallet busy' })
    expect(controller.getState().namespaces.eip155.status).toBe('disconnected')
    expect(controller.getWagmiConfig().state.status).toBe('disconnected')
    expect(storage.getItem(storageKeys.connectedConnectorId('eip155'))).toBeNull()
    controller.destroy()
  })
})

describe('getNativeBalance', () => {
  it('truncates the formatted balance to 3 decimals (spec §9)', async () => {
    const { controller } = setup()
    const balance = await controller.getNativeBalance({ address: alice, chainId: mainnet.id })
    expect(balance).toEqual({ formatted: '1.234', symbol: 'ETH', value: 1_234_567_890_000_000_000n })
    controller.destroy()
  })
})

describe('state', () => {
  it('notifies only on change and hands out frozen snapshots', async () => {
    const { controller } = setup()
    let calls = 0
    controller.subscribe(() => calls++)
    await controller.init()
    expect(calls).toBe(0)
    const state = controller.getState()
    expect(Object.isFrozen(state)).toBe(true)
    expect(Object.isFrozen(state.namespaces.eip155)).toBe(true)
    expect(state.connectors.map((c) => [c.id, c.type])).toEqual([['mock', 'EXTERNAL']])
    controller.destroy()
  })
})
