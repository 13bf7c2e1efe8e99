import { describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import type { TokenBalance, Transaction } from '@latchkit/core'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { connectedAddress, createConnectedFakeLatch } from '../../test/createFakeLatch'
import { createFakeAccountData, type FakeAccountData, type FakeAccountServer } from '../../test/fakeAccountData'
import { renderWithLatch } from '../../test/render'
import { MAINNET_ID, OPTIMISM_ID } from '../../test/ids'

async function openAccount(options: Parameters<typeof createConnectedFakeLatch>[0] = {}) {
  const latch = createConnectedFakeLatch(options)
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-account-button'))
  return result
}

describe('Account view', () => {
  it('shows avatar, truncated address, balance and network', async () => {
    await openAccount()
    const view = screen.getByTestId('latch-view-Account')
    expect(view.querySelector('svg.latch-avatar')).not.toBeNull()
    expect(screen.getByTestId('latch-account-address').textContent).toBe('0x12…345678')
    expect(screen.getByTestId('latch-account-balance').textContent).toBe('1.234 ETH')
    expect(screen.getByTestId('latch-account-network').textContent).toBe('Ethereum')
  })

  it('copies the full address and shows a success toast', async () => {
    const { user, latch } = await openAccount()
    await user.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(latch.copied).toEqual([connectedAddress])
    expect((await screen.findByRole('status')).textContent).toBe('Address copied')
  })

  it('disconnects', async () => {
    const { user, latch } = await openAccount()
    const disconnect = vi.spyOn(latch, 'disconnect')
    await user.click(screen.getByRole('button', { name: 'Disconnect' }))
    expect(disconnect).toHaveBeenCalledOnce()
    expect(screen.getByTestId('latch-connect-button')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('the network badge opens Networks, and back returns to Account', async () => {
    const { user } = await openAccount()
    await user.click(screen.getByTestId('latch-account-network'))
    expect(screen.getByTestId('latch-view-Networks')).toBeTruthy()
    await user.click(screen.getByTestId('latch-modal-back'))
    expect(screen.getByTestId('latch-view-Account')).toBeTruthy()
  })

  it('with network switching off, the badge shows the network but does not open Networks', async () => {
    const { user } = await openAccount({ state: { enableNetworkSwitch: false } })
    const badge = screen.getByTestId('latch-account-network')
    expect(badge.textContent).toBe('Ethereum')
    expect((badge as HTMLButtonElement).disabled).toBe(true)
    await user.click(badge)
    expect(screen.getByTestId('latch-view-Account')).toBeTruthy()
  })

  it('the avatar is deterministic per address', async () => {
    const { latch } = await openAccount()
    const first = screen.getByTestId('latch-view-Account').querySelector('svg.latch-avatar stop')!.getAttribute('stop-color')
    act(() => latch.close())
    act(() => void latch.open())
    const again = screen.getByTestId('latch-view-Account').querySelector('svg.latch-avatar stop')!.getAttribute('stop-color')
    expect(again).toBe(first)
  })
})

// --- Tabs: Tokens, NFTs, Activity (issue 6) ---------------------------------------------------------------

const usdcAddress = `${MAINNET_ID}:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`
const balances: TokenBalance[] = [
  { name: 'USD Coin', symbol: 'USDC', chainId: MAINNET_ID, address: usdcAddress, value: 98.5, price: 1, quantity: { decimals: '6', numeric: '98.5' }, iconUrl: '' },
  { name: 'Ether', symbol: 'ETH', chainId: MAINNET_ID, value: 3702.6, price: 3000, quantity: { decimals: '18', numeric: '1.2342' }, iconUrl: '' },
]

function tx(id: string, operationType: string, minedAt: Date, numeric = '1.5', chain = MAINNET_ID): Transaction {
  return {
    id,
    metadata: { operationType, hash: `0x${id}`, chain, minedAt: minedAt.toISOString(), sentFrom: connectedAddress, sentTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', status: 'confirmed', nonce: 1 },
    transfers: [{ fungible_info: { name: 'USD Coin', symbol: 'USDC' }, direction: operationType === 'receive' ? 'in' : 'out', quantity: { numeric } }],
  }
}

async function openWithData(server: FakeAccountServer) {
  const toasts: string[] = []
  // The service's toast goes through the latch, as createLatch wires it.
  let show: (message: string) => void = () => {}
  const latch = createConnectedFakeLatch({ accountData: createFakeAccountData(server, (m) => show(m)) })
  show = (message) => {
    toasts.push(message)
    latch.showToast(message, 'error')
  }
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-account-button'))
  return { ...result, accountData: latch.accountData as FakeAccountData, toasts }
}

describe('Account tabs', () => {
  it('Tokens: the USD total, then each balance (native first) with 3-decimal quantity and 2-decimal USD', async () => {
    const { accountData } = await openWithData({ balances })
    expect(screen.getByRole('tab', { name: 'Tokens' }).getAttribute('aria-selected')).toBe('true')
    expect((await screen.findByTestId('latch-tokens-total')).textContent).toBe('$3,801.10')
    const rows = screen.getAllByTestId(/^latch-token-(ETH|USDC)$/)
    expect(rows.map((r) => r.dataset.testid)).toEqual(['latch-token-ETH', 'latch-token-USDC'])
    expect(within(rows[0]!).getByTestId('latch-token-quantity').textContent).toBe('1.234 ETH')
    expect(within(rows[0]!).getByTestId('latch-token-value').textContent).toBe('$3,702.60')
    expect(within(rows[1]!).getByTestId('latch-token-quantity').textContent).toBe('98.500 USDC')
    const request = accountData.requests.find((u) => u.pathname.endsWith('/balance'))!
    expect(request.pathname).toBe(`/v1/account/${connectedAddress}/balance`)
    expect(Object.fromEntries(request.searchParams)).toMatchObject({ currency: 'usd', chainId: MAINNET_ID, projectId: 'test' })
  })

  it('Tokens: a failed fetch shows the toast once, $0.00 and a retry', async () => {
    const { toasts } = await openWithData({ balances: 503 })
    await screen.findByTestId('latch-tokens-error')
    expect(screen.getByTestId('latch-tokens-total').textContent).toBe('$0.00')
    expect(toasts).toEqual(['Token Balance Unavailable'])
    expect((await screen.findByRole('alert')).textContent).toBe('Token Balance Unavailable')
  })

  it('NFTs: an honest empty state', async () => {
    const { user } = await openWithData({ balances })
    await user.click(screen.getByRole('tab', { name: 'NFTs' }))
    expect(screen.getByTestId('latch-nfts-empty').textContent).toContain('No NFTs yet')
  })

  it('Activity: month groups, DD MMM dates, relative labels and the + sign for receives; only this chain', async () => {
    const now = new Date()
    const thisMonth = new Date(now.getFullYear(), now.getMonth(), 1, 0, 0, 1)
    const lastYear = new Date(now.getFullYear() - 1, 2, 9, 12)
    const history = {
      '': { data: [tx('aa', 'receive', thisMonth, '2'), tx('bb', 'send', lastYear, '1.5'), tx('cc', 'send', thisMonth, '9', OPTIMISM_ID)], next: null },
    }
    const { user } = await openWithData({ balances, history })
    await user.click(screen.getByRole('tab', { name: 'Activity' }))
    const groups = await screen.findAllByTestId('latch-activity-group')
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
    expect(groups.map((g) => within(g).getByTestId('latch-activity-group-title').textContent)).toEqual([months[now.getMonth()], `March ${now.getFullYear() - 1}`])
    const items = screen.getAllByTestId('latch-activity-item')
    expect(items).toHaveLength(2) // the other chain's transaction is hidden
    expect(within(items[0]!).getByTestId('latch-activity-description').textContent).toBe('+2.000 USDC')
    expect(within(items[0]!).getByTestId('latch-activity-date').textContent).toBe(`01 ${months[now.getMonth()]!.slice(0, 3)}`)
    expect(within(items[0]!).getByTestId('latch-activity-relative').textContent).toMatch(/^\d+ (sec|min|hrs?|d|mo|yr)$/)
    expect(within(items[1]!).getByTestId('latch-activity-description').textContent).toBe('1.500 USDC')
    expect(within(items[1]!).getByTestId('latch-activity-date').textContent).toBe('09 Mar')
  })

  it('Activity: loads the next page with the cursor when the end scrolls into view', async () => {
    const instances: { intersect(): void }[] = []
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        targets: Element[] = []
        constructor(public callback: IntersectionObserverCallback) {
          instances.push(this)
        }
        observe(t: Element) {
          this.targets.push(t)
        }
        disconnect() {
          this.targets = []
        }
        unobserve() {}
        takeRecords() {
          return []
        }
        intersect() {
          this.callback(this.targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry), this as unknown as IntersectionObserver)
        }
      },
    )
    try {
      const day = new Date()
      const history = {
        '': { data: [tx('p1', 'send', day)], next: 'cursor-2' },
        'cursor-2': { data: [tx('p2', 'receive', day)], next: null },
      }
      const { user, accountData } = await openWithData({ balances, history })
      await user.click(screen.getByRole('tab', { name: 'Activity' }))
      await screen.findByTestId('latch-activity-more')
      act(() => instances.forEach((o) => o.intersect()))
      await waitFor(() => expect(screen.getAllByTestId('latch-activity-item')).toHaveLength(2))
      const cursors = accountData.requests.filter((u) => u.pathname.endsWith('/history')).map((u) => u.searchParams.get('cursor'))
      expect(cursors).toEqual([null, 'cursor-2'])
      expect(screen.queryByTestId('latch-activity-more')).toBeNull()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('Activity: empty and failed states', async () => {
    const empty = await openWithData({ balances, history: { '': { data: [], next: null } } })
    await empty.user.click(screen.getByRole('tab', { name: 'Activity' }))
    expect((await screen.findByTestId('latch-activity-empty')).textContent).toContain('No activity yet')
    empty.unmount()
    const failed = await openWithData({ balances, history: 500 })
    await failed.user.click(screen.getByRole('tab', { name: 'Activity' }))
    expect((await screen.findByTestId('latch-activity-error')).textContent).toContain('Failed to fetch transactions')
  })

  it("the visitor's own transaction refreshes balances and history", async () => {
    const { accountData, user } = await openWithData({ balances })
    await screen.findByTestId('latch-tokens-total')
    await user.click(screen.getByRole('tab', { name: 'Activity' }))
    await screen.findByTestId('latch-activity-empty')
    const count = (suffix: string) => accountData.requests.filter((u) => u.pathname.endsWith(suffix)).length
    const before = { balance: count('/balance'), history: count('/history') }
    accountData.server.balances = [{ ...balances[0]!, quantity: { decimals: '6', numeric: '97' }, value: 97 }, balances[1]!]
    act(() => accountData.notifyTransaction({ hash: '0x1', chainId: 1, tokens: [usdcAddress] }))
    await waitFor(() => expect(count('/history')).toBe(before.history + 1))
    await user.click(screen.getByRole('tab', { name: 'Tokens' }))
    await waitFor(() => expect(screen.getByTestId('latch-token-USDC').textContent).toContain('97.000 USDC'))
    const last = accountData.requests.filter((u) => u.pathname.endsWith('/balance')).at(-1)!
    expect(last.searchParams.get('forceUpdate')).toBe(usdcAddress)
    expect(count('/balance')).toBeGreaterThan(before.balance)
  })

  it('Send and Receive buttons open their views; features can turn them and Activity off', async () => {
    const { user } = await openWithData({ balances })
    await user.click(screen.getByTestId('latch-account-receive'))
    expect(await screen.findByTestId('latch-view-WalletReceive')).toBeTruthy()
    await user.click(screen.getByTestId('latch-modal-back'))
    await user.click(screen.getByTestId('latch-account-send'))
    expect(await screen.findByTestId('latch-view-WalletSend')).toBeTruthy()
  })

  it('features off: no Send, Receive or Activity', async () => {
    const latch = createConnectedFakeLatch({ state: { features: { send: false, receive: false, activity: false, email: true } } })
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    await user.click(screen.getByTestId('latch-account-button'))
    expect(screen.queryByTestId('latch-account-send')).toBeNull()
    expect(screen.queryByTestId('latch-account-receive')).toBeNull()
    expect(screen.queryByRole('tab', { name: 'Activity' })).toBeNull()
  })

  it("Tokens: Buy and Swap follow the project's remote features (swap, onramp), and the local options before the config is read", async () => {
    const open = async (features: object) => {
      const latch = createConnectedFakeLatch({
        accountData: createFakeAccountData({ balances }),
        state: { features: { send: true, receive: true, activity: true, email: true, ...features } },
      })
      const result = renderWithLatch(<ConnectButton />, { latch })
      await result.user.click(screen.getByTestId('latch-account-button'))
      await screen.findByTestId('latch-tokens-total')
      const shown = [screen.queryByTestId('latch-account-buy'), screen.queryByTestId('latch-account-swap')].map((b) => b?.textContent ?? null)
      result.unmount()
      return shown
    }
    expect(await open({ swaps: ['1inch'], onramp: ['meld'] })).toEqual(['Buy', 'Swap'])
    expect(await open({ swaps: false, onramp: ['meld'] })).toEqual(['Buy', null])
    expect(await open({ swaps: ['1inch'], onramp: false })).toEqual([null, 'Swap'])
    // Not read yet: the local options (none set here) leave both on.
    expect(await open({})).toEqual(['Buy', 'Swap'])
  })

  it('orders the actions by features.walletFeaturesOrder (default onramp, swaps, receive, send)', async () => {
    const order = async (latchOptions: object) => {
      const latch = createConnectedFakeLatch({ latchOptions, state: { features: { send: true, receive: true, activity: true, email: true, swaps: ['1inch'], onramp: ['meld'] } } })
      const result = renderWithLatch(<ConnectButton />, { latch })
      await result.user.click(screen.getByTestId('latch-account-button'))
      const ids = [...screen.getByTestId('latch-view-Account').querySelectorAll('.latch-action-button')].map((b) => b.getAttribute('data-testid'))
      result.unmount()
      return ids
    }
    expect(await order({})).toEqual(['latch-account-buy', 'latch-account-swap', 'latch-account-receive', 'latch-account-send'])
    expect(await order({ features: { walletFeaturesOrder: ['send', 'receive', 'swaps', 'onramp'] } })).toEqual([
      'latch-account-send',
      'latch-account-receive',
      'latch-account-swap',
      'latch-account-buy',
    ])
  })
})
