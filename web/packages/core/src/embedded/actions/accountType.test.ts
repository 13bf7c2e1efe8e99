import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../../storage'
import { createStore } from '../../store'
import type { Latch } from '../../latch-types'
import { EMBEDDED_CONNECTOR_ID } from '../controller'
import type { FrameUser } from '../protocol'
import { initialEmbeddedState } from '../state'
import { EMBEDDED_STORAGE_KEYS } from '../storageKeys'
import { PREFERRED_ACCOUNT_TYPES_KEY, setAccountType, SMART_ACCOUNTS_UNSUPPORTED_MESSAGE, smartAccountNetworks, storedAccountType } from './accountType'

const EOA = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const SMART = '0x1111111111111111111111111111111111111111'

/** A Latch with just what the actions touch, and a frame that answers like web/packages/frame. */
function fixture(frame: { smart?: boolean; networks?: 'fail' | number[] } = {}) {
  const sent: Array<[string, unknown]> = []
  let type: 'eoa' | 'smartAccount' = 'eoa'
  const request = async (name: string, payload?: { type?: 'eoa' | 'smartAccount' }) => {
    sent.push([name, payload])
    switch (name) {
      case 'SET_PREFERRED_ACCOUNT':
        if (payload!.type === 'smartAccount' && !frame.smart) throw new Error(SMART_ACCOUNTS_UNSUPPORTED_MESSAGE)
        type = payload!.type!
        return { type, address: type === 'eoa' ? EOA : SMART }
      case 'GET_USER': {
        const user: FrameUser = { address: type === 'eoa' ? EOA : SMART, chainId: 'eip155:31337', accounts: [], preferredAccountType: type, smartAccountDeployed: false }
        return user
      }
      case 'GET_SMART_ACCOUNT_ENABLED_NETWORKS':
        if (frame.networks === 'fail') throw new Error('frame failed')
        return { smartAccountEnabledNetworks: frame.networks ?? [] }
    }
    throw new Error(`unexpected ${name}`)
  }
  const store = createStore(initialEmbeddedState())
  const storage = createMemoryStorage()
  const changed: unknown[] = []
  const latch = {
    _internal: {
      embedded: { store, frame: async () => ({ request }), chainId: () => 31337, usedBefore: () => storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed) === 'true' },
      storage,
    },
    getWagmiConfig: () => ({ connectors: [{ id: 'other', onAccountsChanged: () => changed.push('wrong') }, { id: EMBEDDED_CONNECTOR_ID, onAccountsChanged: (a: unknown) => changed.push(a) }] }),
  } as unknown as Latch
  return { latch, sent, store, storage, changed }
}

describe('setAccountType', () => {
  it('switches to the smart account: stored per spec §3, the user reloaded, wagmi told the new address', async () => {
    const { latch, sent, store, storage, changed } = fixture({ smart: true })
    expect(await setAccountType(latch, 'smartAccount')).toEqual({ type: 'smartAccount', address: SMART })
    expect(sent.map((s) => s[0])).toEqual(['SET_PREFERRED_ACCOUNT', 'GET_USER'])
    expect(JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY)!)).toEqual({ eip155: 'smartAccount' })
    expect(storedAccountType(storage)).toBe('smartAccount')
    expect(store.getState().user?.address).toBe(SMART)
    expect(changed).toEqual([['0x1111111111111111111111111111111111111111']])
    expect(await setAccountType(latch, 'eoa')).toEqual({ type: 'eoa', address: EOA })
    expect(storedAccountType(storage)).toBe('eoa')
  })

  it('falls back to the EOA with the spec message when the smart account is refused (spec §4, §8)', async () => {
    const { latch, sent, storage, store } = fixture({ smart: false })
    expect(await setAccountType(latch, 'smartAccount')).toEqual({ type: 'eoa', address: EOA, error: SMART_ACCOUNTS_UNSUPPORTED_MESSAGE })
    expect(sent.map((s) => s[1])).toEqual([{ type: 'smartAccount' }, { type: 'eoa' }, { chainId: 'eip155:31337' }])
    expect(storedAccountType(storage)).toBe('eoa')
    expect(store.getState().user?.preferredAccountType).toBe('eoa')
  })

  it('reads no preference from a malformed stored value', () => {
    const storage = createMemoryStorage()
    storage.setItem(PREFERRED_ACCOUNT_TYPES_KEY, '{oops')
    expect(storedAccountType(storage)).toBeUndefined()
    storage.setItem(PREFERRED_ACCOUNT_TYPES_KEY, '{"eip155":"other"}')
    expect(storedAccountType(storage)).toBeUndefined()
  })
})

describe('smartAccountNetworks', () => {
  it('keeps the frame’s list comma-joined; a failure is an empty list (spec §4)', async () => {
    const signedIn: FrameUser = { address: EOA, chainId: 'eip155:31337', accounts: [] }
    const ok = fixture({ networks: [31337, 31338] })
    ok.store.setState({ user: signedIn })
    ok.storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    expect(await smartAccountNetworks(ok.latch)).toEqual([31337, 31338])
    expect(ok.storage.getItem(EMBEDDED_STORAGE_KEYS.smartAccountEnabledNetworks)).toBe('31337,31338')
    const failed = fixture({ networks: 'fail' })
    failed.store.setState({ user: signedIn })
    failed.storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    failed.storage.setItem(EMBEDDED_STORAGE_KEYS.smartAccountEnabledNetworks, '1')
    expect(await smartAccountNetworks(failed.latch)).toEqual([])
    expect(failed.storage.getItem(EMBEDDED_STORAGE_KEYS.smartAccountEnabledNetworks)).toBe('')
  })

  it('stores nothing once a sign-out began (it cleared the keys; the user goes only after the frame answers)', async () => {
    const gone = fixture({ networks: [31337] })
    gone.store.setState({ user: { address: EOA, chainId: 'eip155:31337', accounts: [] } })
    expect(await smartAccountNetworks(gone.latch)).toEqual([31337])
    expect(gone.storage.getItem(EMBEDDED_STORAGE_KEYS.smartAccountEnabledNetworks)).toBeNull()
  })
})
