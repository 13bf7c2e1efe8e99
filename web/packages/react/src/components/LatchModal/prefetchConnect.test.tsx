// The Connect view's prefetch (issue 41): pointer-over, focus and idle load what the view shows beyond the dialog's
// chunk, each once, so the click shows it whole at once; a click with no prefetch still shows it. Each test imports
// the widget afresh (vi.resetModules), so no chunk is loaded yet, as in a page that just started; lazyRetry is
// wrapped to count the loads of the view's lazy parts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createLatch, type Latch } from '@latchkit/core'
import { defineChain } from 'viem'
import { connectedAddress, createFakeLatch, makeWallet } from '../../test/createFakeLatch'

/** The Connect view's lazy parts, by the module each loads. */
const parts = ['EmbeddedViews', 'SocialLogin', 'LegalConsent'] as const
let loads: string[]
/** Addresses of the images the page asked the browser for (new Image()). */
let requested: string[]
const latches: Latch[] = []

beforeEach(() => {
  loads = []
  requested = []
  vi.stubGlobal(
    'Image',
    class {
      set src(value: string) {
        requested.push(value)
      }
      decode() {
        return Promise.resolve()
      }
    },
  )
})

afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.doUnmock('../../lazyRetry')
  vi.resetModules()
})

/** How many times each lazy part of the Connect view was loaded. */
function loadCounts(): Record<(typeof parts)[number], number> {
  return Object.fromEntries(parts.map((p) => [p, loads.filter((l) => l.includes(`/${p}.`)).length])) as Record<(typeof parts)[number], number>
}
const none = { EmbeddedViews: 0, SocialLogin: 0, LegalConsent: 0 }
const once = { EmbeddedViews: 1, SocialLogin: 1, LegalConsent: 1 }

/** A fresh widget whose lazyRetry records each load (by its loader's source, which names the module). */
async function freshModules() {
  vi.resetModules()
  vi.doMock('../../lazyRetry', async (importOriginal) => {
    const real = await importOriginal<typeof import('../../lazyRetry')>()
    return {
      ...real,
      lazyRetry: (load: () => Promise<never>) =>
        real.lazyRetry(() => {
          loads.push(String(load))
          return load()
        }),
    }
  })
  const { LatchProvider } = await import('../LatchProvider/LatchProvider')
  const { ConnectButton } = await import('../ConnectButton/ConnectButton')
  const { loadModalDialog, prefetchConnect } = await import('./LatchModal')
  return { LatchProvider, ConnectButton, loadModalDialog, prefetchConnect }
}

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
/** The registry's first page as latchd would answer it: 95 wallets, the first 40 here, each with an icon. */
const firstPage = { count: 95, wallets: Array.from({ length: 40 }, (_, i) => makeWallet(i + 1)) }

/**
 * A real Latch whose Connect view shows every lazy part: the e-mail field (a frameUrl; no frame is made before a
 * login), the default socials (latchd cannot be reached, spec §7) and the legal links. Its registry page is stubbed.
 */
function fullConnectLatch(): Latch {
  const latch = createLatch({
    projectId: 'a'.repeat(32),
    networks: [dev],
    apiUrl: 'http://127.0.0.1:1',
    walletConnect: false,
    frameUrl: 'http://127.0.0.1:2',
    termsConditionsUrl: 'https://app.test/terms',
  })
  latches.push(latch)
  vi.spyOn(latch, 'fetchWallets').mockResolvedValue(firstPage)
  return latch
}

/** The registry page-1 reads (the All Wallets row's count and icon). */
const firstPageReads = (latch: Latch) => vi.mocked(latch.fetchWallets).mock.calls.filter(([p]) => p.page === 1 && !p.search).length

async function renderButton(latch: Latch) {
  const modules = await freshModules()
  const { LatchProvider, ConnectButton } = modules
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <ConnectButton />
    </LatchProvider>,
  )
  return modules
}

/** What the Connect view held in the commit that first showed it (recorded before any later render). */
function firstConnectFrame(): Promise<{ spinners: number; email: boolean; socials: boolean; socialsDisabled: number; legal: boolean; count: string | null }> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const view = document.querySelector('[data-testid="latch-view-Connect"]')
      if (!view) return
      observer.disconnect()
      const has = (id: string) => view.querySelector(`[data-testid="${id}"]`) !== null
      resolve({
        spinners: view.querySelectorAll('.latch-spinner').length,
        email: has('latch-email-login'),
        socials: has('latch-social-login'),
        // The social buttons wait, disabled, for the e-mail wallet's actions.
        socialsDisabled: view.querySelectorAll('[data-testid^="latch-social-"]:disabled').length,
        legal: has('latch-legal'),
        count: view.querySelector('[data-testid="latch-all-wallets-count"]')?.textContent ?? null,
      })
    })
    observer.observe(document.body, { childList: true, subtree: true })
  })
}

/** No idle time in a test that does not ask for it. */
function noIdle() {
  vi.stubGlobal('requestIdleCallback', () => 0)
  vi.stubGlobal('cancelIdleCallback', () => {})
}

describe('prefetchConnect', () => {
  it('pointer-over the button loads the view’s chunks, first wallet page and icons, once however often; the click then shows the view whole in its first frame', async () => {
    noIdle()
    const latch = fullConnectLatch()
    const { prefetchConnect } = await renderButton(latch)
    await act(() => latch.init()) // the page has started (latchd's features are known) when a visitor points at the button
    const button = screen.getByTestId('latch-connect-button')
    expect(loadCounts()).toEqual(none)
    expect(firstPageReads(latch)).toBe(0)

    const user = userEvent.setup()
    await user.hover(button)
    await waitFor(() => expect(loadCounts()).toEqual(once))
    await waitFor(() => expect(requested).toContain('https://img.test/w4.png')) // the All Wallets icon's, from page 1
    await user.unhover(button)
    await user.hover(button)
    fireEvent.focus(button)
    await act(() => prefetchConnect(latch)) // everything started has settled
    await waitFor(() => expect(button.hasAttribute('data-prefetched')).toBe(true)) // and the button says so
    expect(loadCounts()).toEqual(once)
    expect(firstPageReads(latch)).toBe(1)
    // The All Wallets icon's four (the registry's first wallets), each asked for once.
    expect([...requested].sort()).toEqual(['w1', 'w2', 'w3', 'w4'].map((w) => `https://img.test/${w}.png`))

    // The click's first commit has every part: no fallback spinner, the count already there.
    const frame = firstConnectFrame()
    fireEvent.click(button)
    expect(await frame).toEqual({ spinners: 0, email: true, socials: true, socialsDisabled: 0, legal: true, count: '90+' })
    expect(loadCounts()).toEqual(once)
    expect(firstPageReads(latch)).toBe(1)
  })

  it('focus (a keyboard visitor) prefetches too, and Enter opens the view', async () => {
    noIdle()
    const latch = fullConnectLatch()
    await renderButton(latch)
    await act(() => latch.init())
    const user = userEvent.setup()
    await user.tab()
    expect(document.activeElement).toBe(screen.getByTestId('latch-connect-button'))
    await waitFor(() => expect(loadCounts()).toEqual(once))
    await user.keyboard('{Enter}')
    expect(await screen.findByTestId('latch-email-login')).toBeTruthy()
    expect(loadCounts()).toEqual(once)
  })

  it('runs when the page is idle (requestIdleCallback, with a timeout), once the instance has started', async () => {
    const idle: Array<{ run: () => void; timeout: number | undefined }> = []
    vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => idle.push({ run, timeout: options?.timeout }))
    vi.stubGlobal('cancelIdleCallback', () => {})
    const latch = fullConnectLatch()
    const init = vi.spyOn(latch, 'init')
    await renderButton(latch)
    expect(idle).toHaveLength(1)
    expect(idle[0]!.timeout).toBe(2000)
    expect(init).toHaveBeenCalledTimes(1) // LatchProvider's
    expect(loadCounts()).toEqual(none)
    expect(firstPageReads(latch)).toBe(0)

    act(() => idle[0]!.run())
    expect(init).toHaveBeenCalledTimes(2) // init() is idempotent: the prefetch waits for the start-up in progress
    await waitFor(() => expect(loadCounts()).toEqual(once))
    await waitFor(() => expect(firstPageReads(latch)).toBe(1))
  })

  it('without requestIdleCallback, runs after the timeout', async () => {
    vi.stubGlobal('requestIdleCallback', undefined)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const latch = fullConnectLatch()
    await renderButton(latch)
    act(() => void vi.advanceTimersByTime(1999))
    expect(loadCounts()).toEqual(none)
    expect(firstPageReads(latch)).toBe(0)
    act(() => void vi.advanceTimersByTime(1))
    vi.useRealTimers()
    await waitFor(() => expect(loadCounts()).toEqual(once))
    await waitFor(() => expect(firstPageReads(latch)).toBe(1))
  })

  it('loads nothing at idle for a visitor already connected (the button opens Account)', async () => {
    const idle: Array<() => void> = []
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run))
    vi.stubGlobal('cancelIdleCallback', () => {})
    const latch = createFakeLatch({
      latchOptions: { termsConditionsUrl: 'https://app.test/terms' },
      state: { account: { status: 'connected', address: connectedAddress, caipAddress: `eip155:1:${connectedAddress}`, chainId: 1 } },
    })
    vi.spyOn(latch, 'fetchWallets')
    await renderButton(latch)
    await act(async () => idle[0]!())
    await act(async () => {})
    expect(loadCounts()).toEqual(none)
    expect(latch.fetchWallets).not.toHaveBeenCalled()
    expect(requested).toEqual([])
  })

  it('loads nothing at idle while the modal is open (its views load what they show)', async () => {
    const idle: Array<() => void> = []
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run))
    vi.stubGlobal('cancelIdleCallback', () => {})
    const latch = createFakeLatch({ latchOptions: { termsConditionsUrl: 'https://app.test/terms' }, state: { open: true, view: 'AllWallets' } })
    const fetchWallets = vi.spyOn(latch, 'fetchWallets')
    await renderButton(latch)
    await act(async () => {})
    const before = fetchWallets.mock.calls.length // the open view's own
    await act(async () => idle[0]!())
    await act(async () => {})
    expect(fetchWallets.mock.calls.length).toBe(before)
    expect(loadCounts().SocialLogin).toBe(0)
  })

  it('a click before any prefetch (no pointer-over, focus or idle) still shows the whole view, its parts as they load', async () => {
    noIdle()
    const latch = fullConnectLatch()
    const { loadModalDialog } = await renderButton(latch)
    await act(() => loadModalDialog()) // the dialog's chunk, which the modal loads when it mounts
    await act(() => latch.init())
    expect(loadCounts()).toEqual(none)

    const frame = firstConnectFrame()
    fireEvent.click(screen.getByTestId('latch-connect-button')) // a click event alone: no pointer-over, no focus
    // The view shows at once, its lazy parts still loading (the e-mail field's spinner)…
    expect(await frame).toMatchObject({ email: false, socials: false, legal: false, count: null })
    // …then whole.
    expect(await screen.findByTestId('latch-email-login')).toBeTruthy()
    expect(await screen.findByTestId('latch-social-login')).toBeTruthy()
    expect(await screen.findByTestId('latch-legal')).toBeTruthy()
    expect((await screen.findByTestId('latch-all-wallets-count')).textContent).toBe('90+')
    expect(loadCounts()).toEqual(once)
    expect(firstPageReads(latch)).toBe(1)
  })

  it('the Connect list’s icons, once preloaded, are drawn in the view’s first frame', async () => {
    noIdle()
    const latch = createFakeLatch() // Rabby, MetaMask and Trust Wallet, icons w1-w3
    const { prefetchConnect } = await renderButton(latch)
    await act(() => prefetchConnect(latch))
    expect([...requested].sort()).toEqual(['w1', 'w2', 'w3', 'w4'].map((w) => `https://img.test/${w}.png`))
    fireEvent.click(screen.getByTestId('latch-connect-button'))
    for (const id of ['recent-rabby', 'metamask', 'trust']) {
      expect(screen.getByTestId(`latch-wallet-${id}`).querySelector('.latch-wallet-image')!.getAttribute('data-status')).toBe('loaded')
    }
  })
})
