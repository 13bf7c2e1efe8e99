import { describe, expect, it } from 'vitest'
import { act, renderHook, screen, waitFor } from '@testing-library/react'
import type { TokenBalance } from '@latchkit/core'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { useLatchSend } from '../../hooks/useLatchSend'
import { createConnectedFakeLatch } from '../../test/createFakeLatch'
import { createFakeAccountData } from '../../test/fakeAccountData'
import { renderWithLatch } from '../../test/render'
import { MAINNET_ID } from '../../test/ids'

const balances: TokenBalance[] = [
  { name: 'Ether', symbol: 'ETH', chainId: MAINNET_ID, value: 3000, price: 3000, quantity: { decimals: '18', numeric: '1' }, iconUrl: '' },
  {
    name: 'USD Coin',
    symbol: 'USDC',
    chainId: MAINNET_ID,
    address: `${MAINNET_ID}:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`,
    value: 98.5,
    price: 1,
    quantity: { decimals: '6', numeric: '98.5' },
    iconUrl: '',
  },
]

async function openSend() {
  // The fake's wagmi config has no connector: any wallet or chain call would fail loudly, so these
  // tests also prove validation answers before anything is asked.
  const latch = createConnectedFakeLatch({ accountData: createFakeAccountData({ balances }) })
  const result = renderWithLatch(<ConnectButton />, { latch })
  act(() => void latch.open({ view: 'WalletSend' }))
  // Two chunks load first (the lazy views' table, then Send's): more than findBy's 1 s when the machine is busy.
  await screen.findByTestId('latch-view-WalletSend', {}, { timeout: 5000 })
  await waitFor(() => expect(screen.getByTestId('latch-send-token').querySelectorAll('option')).toHaveLength(3))
  return result
}

const error = () => screen.findByTestId('latch-send-error')

describe('Send view', () => {
  it('lists the visitor’s balances as tokens', async () => {
    await openSend()
    const options = [...screen.getByTestId('latch-send-token').querySelectorAll('option')].map((o) => o.textContent)
    expect(options).toEqual(['Select token', 'ETH — 1.000', 'USDC — 98.500'])
  })

  it('empty fields: "An amount and receiver address are required"', async () => {
    const { user } = await openSend()
    await user.click(screen.getByTestId('latch-send-review'))
    expect((await error()).textContent).toBe('An amount and receiver address are required')
    expect(screen.getByTestId('latch-view-WalletSend')).toBeTruthy()
  })

  it('opens on the native coin; with the token unselected, "A token is required"', async () => {
    const { user } = await openSend()
    const picker = screen.getByTestId('latch-send-token') as HTMLSelectElement
    await waitFor(() => expect(picker.selectedOptions[0]?.textContent).toMatch(/^ETH /))
    await user.selectOptions(picker, '')
    await user.type(screen.getByTestId('latch-send-amount'), '1')
    await user.type(screen.getByTestId('latch-send-receiver'), '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')
    await user.click(screen.getByTestId('latch-send-review'))
    expect((await error()).textContent).toBe('A token is required')
  })

  it('a bad amount and a bad address get their messages', async () => {
    const { user } = await openSend()
    await user.selectOptions(screen.getByTestId('latch-send-token'), `${MAINNET_ID}:${MAINNET_ID}:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`)
    expect(screen.getByTestId('latch-send-balance').textContent).toBe('Balance: 98.500 USDC')
    await user.type(screen.getByTestId('latch-send-amount'), '1,5')
    await user.type(screen.getByTestId('latch-send-receiver'), '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')
    await user.click(screen.getByTestId('latch-send-review'))
    expect((await error()).textContent).toBe('Number `1,5` is not a valid decimal number.')
    expect(screen.getByTestId('latch-send-amount').getAttribute('aria-invalid')).toBe('true')
    await user.clear(screen.getByTestId('latch-send-amount'))
    await user.type(screen.getByTestId('latch-send-amount'), '1.5')
    await user.clear(screen.getByTestId('latch-send-receiver'))
    await user.type(screen.getByTestId('latch-send-receiver'), '0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC')
    await user.click(screen.getByTestId('latch-send-review'))
    expect((await error()).textContent).toBe('Address "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC" has an invalid checksum.')
  })

  it('a receiver address shows its avatar and short form once checked', async () => {
    const { user } = await openSend()
    await user.type(screen.getByTestId('latch-send-receiver'), '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
    const resolved = await screen.findByTestId('latch-send-receiver-resolved', {}, { timeout: 2000 })
    expect(resolved.textContent).toContain('0x3C…4293BC')
    expect(resolved.querySelector('svg.latch-avatar')).not.toBeNull()
  })
})

describe('useLatchSend and the success toast', () => {
  it('the headless hook applies the same rules: sendNow without fields rejects with the spec message, nothing is asked', async () => {
    const latch = createConnectedFakeLatch({ accountData: createFakeAccountData({ balances }) })
    const { result } = renderHook(() => useLatchSend(), {
      wrapper: ({ children }) => (
        <LatchProvider latch={latch} wagmi={false}>
          {children}
        </LatchProvider>
      ),
    })
    await waitFor(() => expect(result.current.ready).toBe(true))
    await waitFor(() => expect(result.current.tokenBalances.map((b) => b.symbol)).toEqual(['ETH', 'USDC']))
    await expect(result.current.sendNow()).rejects.toMatchObject({ kind: 'missing_fields', message: 'An amount and receiver address are required' })
    await waitFor(() => expect(result.current.error).toBe('An amount and receiver address are required'))
    await expect(result.current.sendNow({ token: balances[1], amount: '1', receiver: 'nobody' })).rejects.toThrow('Address "nobody" is invalid.')
  })

  it('a success toast links to the block explorer', async () => {
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open())
    act(() => latch.showToast('Sent 1.5 USDC', 'success', { link: { url: 'https://etherscan.io/tx/0xabc', label: 'View on Etherscan' } }))
    const link = await screen.findByTestId('latch-toast-link')
    expect(link.getAttribute('href')).toBe('https://etherscan.io/tx/0xabc')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(link.textContent).toBe('View on Etherscan')
  })
})
