// The hooks with a connected wallet: wagmi's mock connector in the app's own wagmi config (`wagmiConfig`), the
// chain answered by a fake transport, latchd unreachable (its failures are reported as alerts, as in a page).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { createAppKit, resetAppKitForTests, type AppKit } from './appkit'
import { useAppKitAccount, useAppKitBalance, useAppKitConnections, useAppKitProvider, useDisconnect, useWalletInfo } from './hooks'

const alice = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('connected', () => {
  let appKit: AppKit
  beforeAll(async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const wagmiConfig = createConfig({
      chains: [mainnet],
      connectors: [mock({ accounts: [alice] })],
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
    await appKit.latch.connectWallet({ id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' })
  })
  afterAll(() => {
    resetAppKitForTests()
    vi.restoreAllMocks()
  })

  it('useAppKitAccount: the account, its CAIP-10 id, allAccounts; another namespace reads as disconnected', () => {
    const { result } = renderHook(() => ({ all: useAppKitAccount(), evm: useAppKitAccount({ namespace: 'eip155' }), sol: useAppKitAccount({ namespace: 'solana' }) }))
    expect(result.current.all).toMatchObject({ address: alice, caipAddress: `eip155:1:${alice}`, isConnected: true, status: 'connected', embeddedWalletInfo: undefined })
    expect(result.current.all.allAccounts).toEqual([{ namespace: 'eip155', address: alice, type: 'eoa' }])
    expect(result.current.evm.isConnected).toBe(true)
    expect(result.current.sol).toMatchObject({ address: undefined, caipAddress: undefined, isConnected: false, status: 'disconnected', allAccounts: [] })
  })

  it('useAppKitConnections lists the one connection', () => {
    const { result } = renderHook(() => ({ all: useAppKitConnections(), sol: useAppKitConnections('solana') }))
    expect(result.current.all.connections).toHaveLength(1)
    expect(result.current.all.connections[0]).toMatchObject({ connectorId: 'mock', accounts: [{ address: alice }], caipNetwork: { id: 1, caipNetworkId: 'eip155:1' } })
    expect(result.current.sol.connections).toEqual([])
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

  it('useDisconnect: another namespace leaves the account; no argument disconnects', async () => {
    const { result } = renderHook(() => ({ disconnect: useDisconnect(), account: useAppKitAccount() }))
    await act(() => result.current.disconnect.disconnect({ namespace: 'solana' }))
    expect(result.current.account.isConnected).toBe(true)
    await act(() => result.current.disconnect.disconnect())
    await waitFor(() => expect(result.current.account.status).toBe('disconnected'))
  })
})
