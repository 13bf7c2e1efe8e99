import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, render, renderHook, screen, waitFor } from '@testing-library/react'
import { defineChain } from 'viem'
import { createAppKit, resetAppKitForTests, type AppKit } from './appkit'
import { AppKitAccountButton, AppKitButton, AppKitConnectButton, AppKitNetworkButton } from './components'
import {
  useAppKit,
  useAppKitAccount,
  useAppKitBalance,
  useAppKitConnection,
  useAppKitConnections,
  useAppKitNetwork,
  useAppKitState,
  useAppKitTheme,
  useAppKitWallet,
  useDisconnect,
  useWalletInfo,
} from './hooks'
import { AppKitCompatError } from './options'
import { createFakeWallet } from '../../core/src/connection/test/fakeWallet'

const chainA = defineChain({ id: 31337, name: 'Dev A', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const chainB = defineChain({ id: 31338, name: 'Dev B', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })

describe('before createAppKit', () => {
  it('a hook says to call createAppKit first', () => {
    expect(() => renderHook(() => useAppKitAccount())).toThrow('Please call "createAppKit" before using "useAppKitAccount" hook')
  })
})

describe('over a Latch instance', () => {
  // No latchd behind apiUrl: start-up fails fast and is reported as an alert, as in a page.
  let appKit: AppKit
  beforeAll(() => {
    appKit = createAppKit({ networks: [chainA, chainB], apiUrl: 'http://127.0.0.1:1', enableWalletConnect: false, themeMode: 'light' })
  })
  afterAll(() => resetAppKitForTests())

  it('createAppKit is a singleton', () => {
    expect(createAppKit({ networks: [chainB] })).toBe(appKit)
  })

  it('useAppKitAccount: disconnected, no accounts', () => {
    const { result } = renderHook(() => useAppKitAccount())
    expect(result.current).toEqual({ allAccounts: [], address: undefined, caipAddress: undefined, isConnected: false, embeddedWalletInfo: undefined, status: 'disconnected' })
  })

  it('useAppKitNetwork: the active network with its CAIP-2 id; switchNetwork changes it', async () => {
    const { result } = renderHook(() => useAppKitNetwork())
    expect(result.current.chainId).toBe(31337)
    expect(result.current.caipNetwork).toMatchObject({ id: 31337, name: 'Dev A', caipNetworkId: 'eip155:31337', chainNamespace: 'eip155' })
    await act(() => result.current.switchNetwork(chainB))
    expect(result.current.chainId).toBe(31338)
    expect(result.current.caipNetworkId).toBe('eip155:31338')
    await act(() => result.current.switchNetwork(chainA))
  })

  it('useAppKit opens and closes the modal; useAppKitState follows', async () => {
    const { result } = renderHook(() => ({ modal: useAppKit(), state: useAppKitState() }))
    expect(result.current.state).toMatchObject({ open: false, selectedNetworkId: 'eip155:31337', activeChain: 'eip155' })
    await act(() => void result.current.modal.open({ view: 'Networks' }))
    await waitFor(() => expect(result.current.state.open).toBe(true))
    expect(appKit.latch.getState().view).toBe('Networks')
    await act(() => result.current.modal.close())
    expect(result.current.state.open).toBe(false)
    await waitFor(() => expect(result.current.state.initialized).toBe(true))
  })

  it('open takes namespace and arguments (AppKit Swap is WalletSwap)', async () => {
    const { result } = renderHook(() => useAppKit())
    await act(() => void result.current.open({ view: 'Swap', namespace: 'eip155', arguments: { fromToken: 'ETH', toToken: 'USDC', amount: '1' } }))
    await waitFor(() => expect(appKit.latch.getState()).toMatchObject({ open: true, view: 'WalletSwap', viewData: { arguments: { fromToken: 'ETH', toToken: 'USDC', amount: '1' } } }))
    await act(() => result.current.close())
  })

  it('addNetwork, removeNetwork, updateFeatures and updateOptions reach Latch (AppKit names, mapped and checked)', async () => {
    const chainC = { ...appKit.latch.getState().networks[0]!, id: 31339, name: 'Dev C' }
    await appKit.addNetwork('eip155', chainC)
    expect(appKit.latch.getState().networks.map((n) => n.id)).toContain(31339)
    await expect(appKit.addNetwork('solana', chainC)).rejects.toThrow('Latch adds EVM networks (eip155) at runtime')
    await appKit.removeNetwork('eip155', 'eip155:31339')
    expect(appKit.latch.getState().networks.map((n) => n.id)).not.toContain(31339)
    await appKit.updateFeatures({ send: false })
    expect(appKit.latch.getState().features.send).toBe(false)
    await appKit.updateFeatures({ send: true })
    await expect(appKit.updateFeatures({ pay: true } as never)).rejects.toThrow('`features.pay` is not supported by Latch yet')
    await appKit.updateOptions({ themeVariables: { '--w3m-accent': '#123456' }, termsConditionsUrl: 'https://app.example/terms' })
    expect(appKit.latch.getState().themeVars['--latch-accent']).toBe('#123456')
    expect(appKit.getThemeVariables()).toEqual({ '--w3m-accent': '#123456' })
    await expect(appKit.updateOptions({ projectId: 'x' })).rejects.toThrow('`projectId` cannot be changed after createLatch')
    await expect(appKit.updateOptions({ enableCoinbase: true } as never)).rejects.toThrow('createAppKit option `enableCoinbase` is not supported by Latch')
  })

  it('open refuses what Latch has not', async () => {
    const { result } = renderHook(() => useAppKit())
    await expect(result.current.open({ view: 'ApproveTransaction' })).rejects.toThrow('open({ view: "ApproveTransaction" }) is not supported by Latch yet')
    await expect(result.current.open({ namespace: 'bip122' })).rejects.toThrow('open({ namespace: "bip122" }): no configured network is in that namespace')
    await expect(result.current.open({ uri: 'wc:x' })).rejects.toThrow('open({ uri }) is not supported by Latch yet')
  })

  it('useAppKitTheme takes --w3m-* keys and gives them back; Latch renders them', () => {
    const { result } = renderHook(() => useAppKitTheme())
    act(() => result.current.setThemeVariables({ '--w3m-accent': '#abcdef' }))
    expect(result.current.themeVariables).toEqual({ '--w3m-accent': '#abcdef' })
    expect(appKit.latch.getState().themeVars['--latch-accent']).toBe('#abcdef')
    expect(() => result.current.setThemeVariables({ '--w3m-color-fg-1': '#000' } as never)).toThrow('"--w3m-color-fg-1" is not supported')
    act(() => result.current.setThemeMode('dark'))
    expect(result.current.themeMode).toBe('dark')
    act(() => result.current.setThemeMode('light'))
  })

  it('disconnected: no connections, no active one; switching, deleting or disconnecting a wallet says none is connected', async () => {
    const onError = vi.fn()
    const { result } = renderHook(() => ({ list: useAppKitConnections(), conn: useAppKitConnection({ onError }), disconnect: useDisconnect() }))
    expect(result.current.list).toEqual({ connections: [], recentConnections: [] })
    expect(result.current.conn).toMatchObject({ connection: undefined, isPending: false })
    await act(() => result.current.conn.switchConnection({ connection: { connectorId: 'x' } }))
    expect(onError).toHaveBeenCalledWith(new AppKitCompatError('switchConnection: no wallet is connected through "x" in eip155'))
    await act(() => result.current.conn.deleteConnection({ connectorId: 'x', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }))
    expect(onError).toHaveBeenLastCalledWith(new AppKitCompatError('deleteConnection: no wallet is connected through "x" in eip155'))
    await expect(result.current.disconnect.disconnect({ id: 'x' })).rejects.toThrow(AppKitCompatError)
  })

  it('fetchBalance and useWalletInfo while disconnected say there is no account', async () => {
    const { result } = renderHook(() => ({ balance: useAppKitBalance(), wallet: useWalletInfo() }))
    await expect(result.current.balance.fetchBalance()).resolves.toEqual({ data: undefined, error: 'No account connected', isSuccess: false, isError: true })
    expect(result.current.wallet.walletInfo).toBeUndefined()
  })

  it("the buttons render Latch's buttons in their place, without a provider", async () => {
    render(
      <div data-testid="bar">
        <AppKitButton label="Sign in" />
        <AppKitConnectButton />
        <AppKitAccountButton />
        <AppKitNetworkButton />
      </div>,
    )
    const bar = screen.getByTestId('bar')
    await waitFor(() => expect(bar.querySelectorAll('[data-testid="latch-connect-button"]')).toHaveLength(2))
    expect(bar.querySelector('[data-appkit="AppKitButton"] [data-testid="latch-connect-button"]')?.textContent).toBe('Sign in')
    expect(bar.querySelector('[data-appkit="AppKitNetworkButton"] [data-testid="latch-network-button"]')?.textContent).toContain('Dev A')
    // Disconnected: the account button renders nothing.
    expect(bar.querySelector('[data-appkit="AppKitAccountButton"]')?.childElementCount).toBe(0)
  })

  it('useAppKitWallet connects a named installed wallet (Latch\'s useLatchWallet), and says when a wallet is unknown', async () => {
    // latchd's registry answers empty: the installed wallet is found by its name among the announced ones.
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      if (new URL(String(input instanceof Request ? input.url : input)).pathname !== '/getWallets') throw new TypeError('fetch failed')
      return new Response(JSON.stringify({ count: 0, data: [] }), { headers: { 'Content-Type': 'application/json' } })
    })
    createFakeWallet({ rdns: 'io.latch.testwallet', name: 'Test Wallet' }).announce()
    const onSuccess = vi.fn()
    const { result } = renderHook(() => useAppKitWallet({ onSuccess }))
    expect(result.current).toMatchObject({ isReady: true, isPending: false, isSuccess: false })
    await act(() => result.current.connect('nosuchwallet'))
    expect(result.current).toMatchObject({ isError: true, error: expect.objectContaining({ name: 'LatchUnknownWalletError' }) })
    await act(() => result.current.connect('test'))
    expect(result.current).toMatchObject({ isSuccess: true, isError: false, data: { chainNamespace: 'eip155', address: expect.stringMatching(/^0x/i) } })
    expect(onSuccess).toHaveBeenCalledWith(result.current.data)
    expect(appKit.latch.getState().open).toBe(false)
    await act(() => appKit.latch.disconnect())
    fetchSpy.mockRestore()
  })

  it('a prop Latch cannot honour throws in development', () => {
    expect(() => render(<AppKitButton namespace="solana" />)).toThrow('<AppKitButton namespace> is not supported by Latch yet')
    expect(() => render(<AppKitAccountButton namespace="solana" />)).toThrow('<AppKitAccountButton namespace> is not supported by Latch yet')
    expect(() => render(<AppKitNetworkButton label="Net" />)).toThrow('<AppKitNetworkButton label> is not supported by Latch yet')
    expect(() => render(<AppKitConnectButton size="md" />)).not.toThrow()
  })
})
