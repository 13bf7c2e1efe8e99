// useLatchWallets: an app's own connect UI with the modal never opened.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'
import { createHeadlessLatch, stubRegistry, trustId } from '../test/headlessLatch'
import { useLatchWallets } from './useLatchWallets'

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function renderWallets() {
  const asked = stubRegistry()
  const { latch, script } = createHeadlessLatch()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <LatchProvider latch={latch} wagmi={false}>
      {children}
    </LatchProvider>
  )
  const view = renderHook(() => useLatchWallets(), { wrapper })
  return { ...view, latch, script, asked }
}

describe('useLatchWallets', () => {
  it('lists the Connect wallets, pages through the registry (40 a page) and searches it', async () => {
    const { result, latch, asked } = renderWallets()
    await waitFor(() => expect(result.current.isInitialized).toBe(true))
    // The Connect view's list, in its order (spec §9), with the registry's recommended wallets loaded.
    expect(result.current.wallets).toEqual(latch.getState().wallets)
    expect(result.current.wallets.map((w) => w.name)).toEqual(['WalletConnect', 'MetaMask', 'Trust Wallet'])
    expect(result.current.wallets[0]).toMatchObject({ id: 'walletConnect', kind: 'walletConnect' })

    await act(() => result.current.fetchNextPage())
    expect(result.current.page).toBe(1)
    expect(result.current.count).toBe(2)
    const pageUrl = asked.at(-1)!
    expect(pageUrl.searchParams.get('entries')).toBe('40')
    expect(pageUrl.searchParams.get('page')).toBe('1')
    // Every registry wallet is listed once, even those already in the Connect list.
    const ids = result.current.wallets.map((w) => w.id)
    expect(new Set(ids).size).toBe(ids.length)
    // Two wallets on a page of 40: no next page to ask for.
    await act(() => result.current.fetchNextPage())
    expect(asked.at(-1)).toBe(pageUrl)

    await act(() => result.current.search('trust'))
    expect(asked.at(-1)!.searchParams.get('search')).toBe('trust')
    expect(result.current.wallets.map((w) => w.name)).toEqual(['Trust Wallet'])
    await act(() => result.current.search(''))
    expect(result.current.wallets.some((w) => w.name === 'MetaMask')).toBe(true)
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })

  it('connect() pairs over WalletConnect with the modal closed: the URI, then the session', async () => {
    const { result, latch, script } = renderWallets()
    await waitFor(() => expect(result.current.isInitialized).toBe(true))
    const trust = result.current.wallets.find((w) => w.id === trustId)!
    let done!: Promise<void>
    act(() => {
      done = result.current.connect(trust)
    })
    expect(result.current.connectingWallet).toBe(trust)
    await waitFor(() => expect(result.current.wcUri).toMatch(/^wc:pairing1@2/))
    expect(result.current.isFetchingWcUri).toBe(false)
    expect(latch.getState().open).toBe(false)

    await act(async () => {
      script.approve!()
      await done
    })
    expect(latch.getState().account.status).toBe('connected')
    expect(result.current.connectingWallet).toBeUndefined()
    expect(result.current.wcUri).toBeUndefined()
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })

  it('resetWcUri abandons the pairing: the URI clears and connect() rejects', async () => {
    const { result, latch, script } = renderWallets()
    await waitFor(() => expect(result.current.isInitialized).toBe(true))
    let done!: Promise<void>
    act(() => {
      done = result.current.connect(result.current.wallets.find((w) => w.id === 'walletConnect')!)
    })
    await waitFor(() => expect(result.current.wcUri).toBeDefined())
    act(() => result.current.resetWcUri())
    await expect(done).rejects.toMatchObject({ name: 'LatchConnectError' })
    expect(script.cancels).toBe(1)
    await waitFor(() => expect(result.current.wcUri).toBeUndefined())
    expect(result.current.wcError).toBeNull()
    latch.destroy()
  })
})
