import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { createFakeLatch, makeWallet } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'

class MockIntersectionObserver {
  static instances: MockIntersectionObserver[] = []
  targets: Element[] = []
  constructor(public callback: IntersectionObserverCallback) {
    MockIntersectionObserver.instances.push(this)
  }
  observe(target: Element) {
    this.targets.push(target)
  }
  unobserve() {}
  disconnect() {
    this.targets = []
  }
  takeRecords() {
    return []
  }
  /** Reports the observed sentinel as visible. */
  intersect() {
    const entries = this.targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry)
    this.callback(entries, this as unknown as IntersectionObserver)
  }
}

/** The newest observer once it watches a sentinel (its effect has run). */
async function liveObserver() {
  await waitFor(() => expect(MockIntersectionObserver.instances.at(-1)?.targets).toHaveLength(1))
  return MockIntersectionObserver.instances.at(-1)!
}

function walletButtons() {
  return within(screen.getByTestId('latch-view-AllWallets'))
    .queryAllByTestId(/^latch-wallet-w/)
    .filter((el) => el.tagName === 'BUTTON')
}

async function openAllWallets(latch = createFakeLatch()) {
  const result = renderWithLatch(<ConnectButton />, { latch })
  act(() => void latch.open({ view: 'AllWallets' }))
  await screen.findByTestId('latch-view-AllWallets')
  return result
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  MockIntersectionObserver.instances = []
})

describe('AllWallets view', () => {
  it('is lazy-loaded and shows the first page of 40', async () => {
    await openAllWallets()
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
    expect(walletButtons()[0]!.textContent).toContain('Wallet 1')
  })

  it('debounces the search by 300 ms and shows the results', async () => {
    const latch = createFakeLatch()
    await openAllWallets(latch)
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
    const fetchWallets = vi.spyOn(latch, 'fetchWallets')
    vi.useFakeTimers()
    const input = screen.getByRole('searchbox', { name: 'Search wallet' })
    fireEvent.change(input, { target: { value: 'Wallet 9' } })
    act(() => vi.advanceTimersByTime(100))
    fireEvent.change(input, { target: { value: 'Wallet 93' } })
    act(() => vi.advanceTimersByTime(299))
    expect(fetchWallets).not.toHaveBeenCalled()
    await act(async () => vi.advanceTimersByTime(1))
    expect(fetchWallets).toHaveBeenCalledTimes(1)
    expect(fetchWallets).toHaveBeenCalledWith({ page: 1, search: 'Wallet 93' })
    vi.useRealTimers()
    await waitFor(() => expect(walletButtons().map((b) => b.querySelector('.latch-list-item-name')?.textContent)).toEqual(['Wallet 93']))
  })

  it('shows the empty state when a search finds nothing', async () => {
    const { user } = await openAllWallets()
    await user.type(screen.getByRole('searchbox'), 'zzz')
    expect((await screen.findByTestId('latch-all-wallets-empty')).textContent).toBe('No wallet found')
  })

  it('loads page 2 when the sentinel scrolls into view (IntersectionObserver)', async () => {
    vi.stubGlobal('IntersectionObserver', MockIntersectionObserver)
    const latch = createFakeLatch()
    const fetchWallets = vi.spyOn(latch, 'fetchWallets')
    await openAllWallets(latch)
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
    const observer = await liveObserver()
    expect(observer.targets[0]).toBe(screen.getByTestId('latch-all-wallets-sentinel'))
    act(() => observer.intersect())
    await waitFor(() => expect(walletButtons()).toHaveLength(80))
    expect(fetchWallets).toHaveBeenLastCalledWith({ page: 2 })
    // The rows render before React runs the effect that observes the new
    // sentinel (passive effects may wait for a later task): intersecting the
    // last observer before that would hit the disconnected page-1 observer.
    const next = await liveObserver()
    expect(next).not.toBe(observer)
    act(() => next.intersect())
    await waitFor(() => expect(walletButtons()).toHaveLength(95))
    // everything loaded: no sentinel left
    expect(screen.queryByTestId('latch-all-wallets-sentinel')).toBeNull()
  })

  it('falls back to a "Load more" button without IntersectionObserver', async () => {
    vi.stubGlobal('IntersectionObserver', undefined)
    const { user } = await openAllWallets()
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(walletButtons()).toHaveLength(80))
  })

  it('shows the error state and retries', async () => {
    const latch = createFakeLatch({ fetchError: true })
    const { user } = await openAllWallets(latch)
    expect(await screen.findByTestId('latch-all-wallets-error')).toBeTruthy()
    latch.options.fetchError = false
    await user.click(screen.getByTestId('latch-all-wallets-retry'))
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
  })

  it('loads wallet images lazily', async () => {
    await openAllWallets(createFakeLatch({ registry: [makeWallet(1)] }))
    await waitFor(() => expect(walletButtons()).toHaveLength(1))
    expect(walletButtons()[0]!.querySelector('img')!.getAttribute('loading')).toBe('lazy')
  })

  it('clicking a wallet connects it', async () => {
    const latch = createFakeLatch({ connect: 'pending' })
    const connect = vi.spyOn(latch, 'connectWallet')
    const { user } = await openAllWallets(latch)
    await waitFor(() => expect(walletButtons()).toHaveLength(40))
    await user.click(walletButtons()[2]!)
    expect(connect).toHaveBeenCalledWith(expect.objectContaining({ id: 'w3' }))
    expect(screen.getByTestId('latch-view-ConnectingExternal')).toBeTruthy()
  })
})
