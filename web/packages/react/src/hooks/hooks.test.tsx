import { describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'
import { connectedAddress, createConnectedFakeLatch, createFakeLatch, type FakeLatch } from '../test/createFakeLatch'
import { useDisconnect } from './useDisconnect'
import { useLatch } from './useLatch'
import { useLatchAccount } from './useLatchAccount'
import { useLatchEvents } from './useLatchEvents'
import { useLatchNetwork } from './useLatchNetwork'
import { useLatchProvider } from './useLatchProvider'
import { useLatchState } from './useLatchState'
import { useLatchTheme } from './useLatchTheme'
import { useWalletInfo } from './useWalletInfo'
import { MAINNET_ID } from '../test/ids'

function wrapperFor(latch: FakeLatch) {
  return ({ children }: { children: ReactNode }) => (
    <LatchProvider latch={latch} wagmi={false}>
      {children}
    </LatchProvider>
  )
}

describe('hooks', () => {
  it('useLatch opens and closes the modal; useLatchState follows', () => {
    const latch = createFakeLatch()
    const { result } = renderHook(() => ({ control: useLatch(), state: useLatchState() }), { wrapper: wrapperFor(latch) })
    expect(result.current.state).toMatchObject({ open: false, loading: false, view: 'Connect', selectedNetworkId: MAINNET_ID })
    act(() => void result.current.control.open({ view: 'Networks' }))
    expect(result.current.state).toMatchObject({ open: true, view: 'Networks', historyLength: 1 })
    act(() => result.current.control.close())
    expect(result.current.state.open).toBe(false)
  })

  it('returns referentially stable results while the selected values do not change', () => {
    const latch = createConnectedFakeLatch()
    const { result } = renderHook(() => useLatchAccount(), { wrapper: wrapperFor(latch) })
    const before = result.current
    act(() => latch.setState({ shake: true }))
    expect(result.current).toBe(before)
  })

  it('useLatchAccount reports the account', () => {
    const { result } = renderHook(() => useLatchAccount(), { wrapper: wrapperFor(createConnectedFakeLatch()) })
    expect(result.current).toEqual({
      address: connectedAddress,
      caipAddress: `${MAINNET_ID}:${connectedAddress}`,
      isConnected: true,
      status: 'connected',
      balance: { formatted: '1.234', symbol: 'ETH' },
    })
  })

  it('useLatchNetwork reports the active network', () => {
    const { result } = renderHook(() => useLatchNetwork(), { wrapper: wrapperFor(createFakeLatch()) })
    expect(result.current.chainId).toBe(1)
    expect(result.current.caipNetworkId).toBe(MAINNET_ID)
    expect(result.current.network.name).toBe('Ethereum')
  })

  it('useLatchTheme reads and sets the theme', () => {
    const { result } = renderHook(() => useLatchTheme(), { wrapper: wrapperFor(createFakeLatch()) })
    act(() => result.current.setThemeMode('dark'))
    act(() => result.current.setThemeVariables({ accent: '#00ff00' }))
    expect(result.current.themeMode).toBe('dark')
    expect(result.current.themeVariables).toEqual({ '--latch-accent': '#00ff00' })
  })

  it('useLatchEvents returns the last event', () => {
    const latch = createFakeLatch()
    const { result } = renderHook(() => useLatchEvents(), { wrapper: wrapperFor(latch) })
    expect(result.current).toBeNull()
    act(() => void latch.open())
    expect(result.current?.data.event).toBe('MODAL_OPEN')
    act(() => latch.close())
    expect(result.current?.data.event).toBe('MODAL_CLOSE')
  })

  it('useDisconnect and useWalletInfo', async () => {
    const latch = createConnectedFakeLatch()
    const { result } = renderHook(() => ({ ...useDisconnect(), ...useWalletInfo(), account: useLatchAccount() }), {
      wrapper: wrapperFor(latch),
    })
    expect(result.current.walletInfo).toEqual({ name: 'MetaMask' })
    await act(() => result.current.disconnect())
    expect(result.current.account.isConnected).toBe(false)
  })

  it('useLatchProvider loads the provider asynchronously and drops it on disconnect', async () => {
    const latch = createConnectedFakeLatch()
    const { result } = renderHook(() => useLatchProvider<{ isFake: boolean }>(), { wrapper: wrapperFor(latch) })
    expect(result.current.walletProvider).toBeUndefined()
    await waitFor(() => expect(result.current.walletProvider?.isFake).toBe(true))
    expect(result.current).toMatchObject({ address: connectedAddress, status: 'connected' })
    await act(() => latch.disconnect())
    expect(result.current.walletProvider).toBeUndefined()
  })

  it('hooks throw a clear error outside LatchProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => renderHook(() => useLatch())).toThrow(/inside <LatchProvider>/)
    vi.restoreAllMocks()
  })
})
