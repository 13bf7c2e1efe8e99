import { describe, expect, it } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { base, sepolia } from 'viem/chains'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'
import { connectedAddress, createConnectedFakeLatch, createFakeLatch, type FakeLatch } from '../test/createFakeLatch'
import { useLatchAccount } from './useLatchAccount'
import { useLatchNetwork } from './useLatchNetwork'

function wrapperFor(latch: FakeLatch) {
  return ({ children }: { children: ReactNode }) => (
    <LatchProvider latch={latch} wagmi={false}>
      {children}
    </LatchProvider>
  )
}

describe('useLatchNetwork().switchNetwork', () => {
  it('switches by network or chain id, and the hook follows', async () => {
    const latch = createFakeLatch()
    const { result } = renderHook(() => useLatchNetwork(), { wrapper: wrapperFor(latch) })
    await act(() => result.current.switchNetwork(base))
    expect(result.current).toMatchObject({ chainId: base.id, caipNetworkId: 'eip155:8453' })
    await act(() => result.current.switchNetwork(sepolia.id))
    expect(result.current.chainId).toBe(sepolia.id)
    expect(latch.switchCalls).toEqual([base.id, sepolia.id])
  })

  it('rejects for a chain the app does not configure', async () => {
    const latch = createFakeLatch()
    const { result } = renderHook(() => useLatchNetwork(), { wrapper: wrapperFor(latch) })
    await expect(result.current.switchNetwork(10)).rejects.toThrow('Network Not Found')
  })
})

describe('useLatchAccount({ namespace })', () => {
  it("reads the active namespace's account, and another namespace's own (here: nothing connected)", () => {
    const latch = createConnectedFakeLatch()
    const { result } = renderHook(() => ({ evm: useLatchAccount({ namespace: 'eip155' }), solana: useLatchAccount({ namespace: 'solana' }), active: useLatchAccount() }), {
      wrapper: wrapperFor(latch),
    })
    expect(result.current.evm).toMatchObject({ address: connectedAddress, isConnected: true, status: 'connected', balance: { formatted: '1.234', symbol: 'ETH' } })
    expect(result.current.active).toEqual(result.current.evm)
    expect(result.current.solana).toEqual({ address: undefined, caipAddress: undefined, isConnected: false, status: 'disconnected', balance: undefined })
  })
})
