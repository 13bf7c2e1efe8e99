import { describe, expect, it } from 'vitest'

import { createMemoryStorage } from '../storage'
import { createConnectionStorage, storageKeys } from './storage.js'
import type { StorageLike } from './types.js'

describe('storageKeys', () => {
  it('prefixes every key with latch:', () => {
    expect([
      storageKeys.connectionStatus('eip155'),
      storageKeys.connectedConnectorId('eip155'),
      storageKeys.connectedNamespaces,
      storageKeys.cachedCaipAddress('solana'),
    ]).toEqual([
      'latch:connectionStatus:eip155',
      'latch:connectedConnectorId:eip155',
      'latch:connectedNamespaces',
      'latch:cachedCaipAddress:solana',
    ])
  })
})

describe('createConnectionStorage', () => {
  it('keeps the list of connected namespaces', () => {
    const storage = createMemoryStorage()
    const stored = createConnectionStorage(storage)
    stored.markConnected('eip155', { connectorId: 'a', caipAddress: 'eip155:1:0x1' })
    stored.markConnected('solana', { connectorId: 'b', caipAddress: 'solana:x:y' })
    stored.markConnected('eip155', { connectorId: 'c', caipAddress: 'eip155:1:0x2' })
    expect(storage.getItem(storageKeys.connectedNamespaces)).toBe('eip155,solana')
    expect(stored.readConnectorId('eip155')).toBe('c')

    stored.markDisconnected('eip155')
    expect(stored.readConnectedNamespaces()).toEqual(['solana'])
    expect(stored.readStatus('eip155')).toBe('disconnected')
    expect(stored.readConnectorId('eip155')).toBeUndefined()
  })

  it('reads unknown values as absent', () => {
    const storage = createMemoryStorage()
    storage.setItem(storageKeys.connectionStatus('eip155'), 'connecting')
    storage.setItem(storageKeys.connectedNamespaces, 'eip155,bogus')
    const stored = createConnectionStorage(storage)
    expect(stored.readStatus('eip155')).toBeUndefined()
    expect(stored.readConnectedNamespaces()).toEqual(['eip155'])
  })

  it('survives a storage that throws (private mode, quota)', () => {
    const failing: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {
        throw new Error('SecurityError')
      },
    }
    const stored = createConnectionStorage(failing)
    expect(() => stored.markConnected('eip155', { connectorId: 'a', caipAddress: 'eip155:1:0x1' })).not.toThrow()
    expect(() => stored.markDisconnected('eip155')).not.toThrow()
    expect(stored.readStatus('eip155')).toBeUndefined()
  })
})
