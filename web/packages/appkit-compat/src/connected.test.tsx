// The hooks with connected wallets: two of wagmi's mock connectors in the app's own wagmi config (`wagmiConfig`),
// both connected (multi-wallet), the chain answered by a fake transport, latchd unreachable (its failures are
// reported as alerts, as in a page).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { createConfig, custom, mock, type CreateConnectorFn } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { createAppKit, resetAppKitForTests, type AppKit } from './appkit'
import { useAppKitAccount, useAppKitBalance, useAppKitConnection, useAppKitConnections, useAppKitProvider, useDisconnect, useWalletInfo } from './hooks'
import { AppKitCompatError } from './options'

const alice = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const bob = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const carol = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

// wagmi's mock connector always has the id "mock": a second one under its own id, holding two accounts.
const other: CreateConnectorFn = (config) => ({ ...mock({ accounts: [bob, carol] })(config), id: 'other', name: 'Other Mock' })
const wallet = (connectorId: string) => ({ id: connectorId, name: connectorId, kind: 'injected' as const, installed: true, connectorId })

describe('connected', () => {
  let appKit: AppKit
  beforeAll(async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const wagmiConfig = createConfig({
      chains: [mainnet],
      connectors: [mock({ accounts: [alice] }), other],
      storage: null,
      batch: { multicall: false },
      transports: {
        [mainnet.id]: custom({
          async request({ method }: { method: string }) {
            if (method === 'eth_getBalance') return '0x14d1120d7b160000' // 1.5 ETH
            if (method === 'eth_chainId') return '0x1'
            throw new Error(`unexpected ${method}`)
          },
        }),
      },
    })
    appKit = createAppKit({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], wagmiConfig })
    // The other wallet first: the one connected last (mock, alice) is the active one.
    await appKit.latch.connectWallet(wallet('other'))
    await appKit.latch.connectWallet(wallet('mock'))
  })
  afterAll(() => {
    resetAppKitForTests()
    vi.restoreAllMocks()
  })

  it('useAppKitAccount: the account, its CAIP-10 id, allAccounts of every wallet; another namespace reads as disconnected', () => {
    const { result } = renderHook(() => ({ all: useAppKitAccount(), evm: useAppKitAccount({ namespace: 'eip155' }), sol: useAppKitAccount({ namespace: 'solana' }) }))
    expect(result.current.all).toMatchObject({ address: alice, caipAddress: `eip155:1:${alice}`, isConnected: true, status: 'connected', embeddedWalletInfo: undefined })
    expect(result.current.all.allAccounts).toEqual([alice, bob, carol].map((address) => ({ namespace: 'eip155', address, type: 'eoa' })))
    expect(result.current.evm.isConnected).toBe(true)
    expect(result.current.sol).toMatchObject({ address: undefined, caipAddress: undefined, isConnected: false, status: 'disconnected', allAccounts: [] })
  })

  it('useAppKitConnections lists every connected wallet, the active one first; recentConnections is empty', () => {
    const { result } = renderHook(() => ({ all: useAppKitConnections(), evm: useAppKitConnections('eip155'), sol: useAppKitConnections('solana') }))
    expect(result.current.all.connections).toEqual([
      { connectorId: 'mock', name: 'Mock Connector', icon: undefined, accounts: [{ address: alice }], caipNetwork: expect.objectContaining({ id: 1, caipNetworkId: 'eip155:1', chainNamespace: 'eip155' }) },
      { connectorId: 'other', name: 'Other Mock', icon: undefined, accounts: [{ address: bob }, { address: carol }], caipNetwork: expect.objectContaining({ id: 1, caipNetworkId: 'eip155:1' }) },
    ])
    expect(result.current.all.recentConnections).toEqual([])
    expect(result.current.evm.connections).toEqual(result.current.all.connections)
    expect(result.current.sol.connections).toEqual([])
  })

  it('useAppKitConnection: switchConnection makes another wallet active (isPending meanwhile) and reports the change; the list and the account follow', async () => {
    const onSuccess = vi.fn()
    const { result } = renderHook(() => ({ conn: useAppKitConnection({ namespace: 'eip155', onSuccess }), list: useAppKitConnections(), account: useAppKitAccount() }))
    expect(result.current.conn).toMatchObject({ connection: { connectorId: 'mock', accounts: [{ address: alice }] }, isPending: false })
    let switching!: Promise<void>
    act(() => {
      switching = result.current.conn.switchConnection({ connection: result.current.list.connections[1]!, address: bob })
    })
    expect(result.current.conn.isPending).toBe(true)
    await act(() => switching)
    expect(result.current.conn.isPending).toBe(false)
    expect(onSuccess).toHaveBeenCalledWith({ address: bob, namespace: 'eip155', hasSwitchedAccount: true, hasSwitchedWallet: true, hasDeletedWallet: false })
    await waitFor(() => expect(result.current.account.address).toBe(bob))
    expect(result.current.conn.connection?.connectorId).toBe('other')
    expect(result.current.list.connections.map((c) => c.connectorId)).toEqual(['other', 'mock'])
    expect(result.current.account.allAccounts.map((a) => a.address)).toEqual([bob, carol, alice])
    // Back to alice's wallet, without an address.
    await act(() => result.current.conn.switchConnection({ connection: { connectorId: 'mock' } }))
    await waitFor(() => expect(result.current.account.address).toBe(alice))
    expect(onSuccess).toHaveBeenLastCalledWith({ address: alice, namespace: 'eip155', hasSwitchedAccount: true, hasSwitchedWallet: true, hasDeletedWallet: false })
  })

  it('useAppKitConnection: what Latch cannot switch to goes to onError, or rejects without onError', async () => {
    const onError = vi.fn()
    const onSuccess = vi.fn()
    const { result } = renderHook(() => ({ reported: useAppKitConnection({ onSuccess, onError }), thrown: useAppKitConnection() }))
    await act(() => result.current.reported.switchConnection({ connection: { connectorId: 'other' }, address: carol }))
    expect(onError).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'AppKitCompatError', message: expect.stringContaining('to an account the wallet has not selected is not supported by Latch yet') }))
    await act(() => result.current.reported.switchConnection({ connection: { connectorId: 'other' }, address: alice }))
    expect(onError).toHaveBeenLastCalledWith(expect.objectContaining({ message: `switchConnection: ${alice} is not an account of the wallet "other"` }))
    await expect(result.current.thrown.switchConnection({ connection: { connectorId: 'nosuch' } })).rejects.toThrow('switchConnection: no wallet is connected through "nosuch" in eip155')
    await expect(result.current.thrown.deleteConnection({ connectorId: 'other', address: alice })).rejects.toThrow(AppKitCompatError)
    expect(onSuccess).not.toHaveBeenCalled()
    expect(result.current.thrown.connection?.connectorId).toBe('mock')
    expect(result.current.reported.isPending).toBe(false)
  })

  it('useWalletInfo and useAppKitProvider follow the namespace', async () => {
    const { result } = renderHook(() => ({ info: useWalletInfo(), solInfo: useWalletInfo('solana'), provider: useAppKitProvider<{ request: unknown }>('eip155'), solProvider: useAppKitProvider('solana') }))
    expect(result.current.info.walletInfo?.name).toBeTruthy()
    expect(result.current.solInfo.walletInfo).toBeUndefined()
    await waitFor(() => expect(typeof result.current.provider.walletProvider?.request).toBe('function'))
    expect(result.current.provider.walletProviderType).toBe('EXTERNAL')
    expect(result.current.solProvider.walletProvider).toBeUndefined()
  })

  it('useAppKitBalance reads the native balance from the chain', async () => {
    const { result } = renderHook(() => useAppKitBalance())
    await expect(result.current.fetchBalance()).resolves.toEqual({ data: { balance: '1.5', symbol: 'ETH' }, error: null, isSuccess: true, isError: false })
  })

  it('deleteConnection disconnects that wallet (Latch keeps no recent ones); removing the active one makes the other active', async () => {
    const onSuccess = vi.fn()
    const { result } = renderHook(() => ({ conn: useAppKitConnection({ onSuccess }), list: useAppKitConnections(), account: useAppKitAccount() }))
    await act(() => result.current.conn.deleteConnection({ address: alice, connectorId: 'mock' }))
    expect(onSuccess).toHaveBeenCalledWith({ address: alice, namespace: 'eip155', hasSwitchedAccount: true, hasSwitchedWallet: true, hasDeletedWallet: true })
    await waitFor(() => expect(result.current.account.address).toBe(bob))
    expect(result.current.list.connections.map((c) => c.connectorId)).toEqual(['other'])
    expect(result.current.list.recentConnections).toEqual([])
    // Connected again for the tests below (it becomes the active one again).
    await act(() => appKit.latch.connectWallet(wallet('mock')))
    await waitFor(() => expect(result.current.list.connections.map((c) => c.connectorId)).toEqual(['mock', 'other']))
  })

  it('useDisconnect: disconnect({ id }) ends one wallet and keeps the others; an id no wallet has is refused', async () => {
    const { result } = renderHook(() => ({ disconnect: useDisconnect(), list: useAppKitConnections(), account: useAppKitAccount() }))
    await expect(result.current.disconnect.disconnect({ id: 'nosuch' })).rejects.toThrow('disconnect({ id: "nosuch" }): no wallet is connected through that connector')
    await expect(result.current.disconnect.disconnect({ id: 'other', namespace: 'solana' })).rejects.toThrow('no wallet is connected through that connector in solana')
    await act(() => result.current.disconnect.disconnect({ id: 'other' }))
    await waitFor(() => expect(result.current.list.connections.map((c) => c.connectorId)).toEqual(['mock']))
    expect(result.current.account).toMatchObject({ address: alice, isConnected: true })
    expect(result.current.account.allAccounts.map((a) => a.address)).toEqual([alice])
  })

  it('useDisconnect: another namespace leaves the account; no argument disconnects', async () => {
    const { result } = renderHook(() => ({ disconnect: useDisconnect(), account: useAppKitAccount() }))
    await act(() => result.current.disconnect.disconnect({ namespace: 'solana' }))
    expect(result.current.account.isConnected).toBe(true)
    await act(() => result.current.disconnect.disconnect())
    await waitFor(() => expect(result.current.account.status).toBe('disconnected'))
  })
})
