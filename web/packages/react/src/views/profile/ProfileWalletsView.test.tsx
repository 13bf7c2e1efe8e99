import { beforeEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { connect, mock, type CreateConnectorFn } from '@wagmi/core'
import { createLatch, listConnections } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { useLatchConnection } from '../../hooks/useLatchConnection'
import { useLatchConnections } from '../../hooks/useLatchConnections'
import { createConnectedFakeLatch, type FakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812DC3A010c7D01b50E20D6dC79c8'
const carol = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

// wagmi's default storage is the page's localStorage: each test starts without the previous one's connections.
beforeEach(() => localStorage.clear())

/** wagmi's mock connector under its own id and name, so two can be connected side by side. */
function wallet(id: string, name: string, accounts: readonly [`0x${string}`, ...`0x${string}`[]]): CreateConnectorFn {
  return (config) => ({ ...mock({ accounts })(config), id, name })
}

/** A connected fake whose wagmi config (the real connection controller behind `_internal`) holds two wallets, Beta active. */
async function connectTwo(): Promise<FakeLatch> {
  const latch = createConnectedFakeLatch()
  const config = latch._internal.connection.getWagmiConfig()
  await connect(config, { connector: wallet('alpha', 'Alpha', [alice]) })
  await connect(config, { connector: wallet('beta', 'Beta', [bob, carol]) })
  return latch
}

async function openProfileWallets(latch: FakeLatch) {
  const result = renderWithLatch(<ConnectButton />, { latch })
  await result.user.click(screen.getByTestId('latch-account-button'))
  await result.user.click(await screen.findByTestId('latch-account-wallets'))
  return { ...result, view: await screen.findByTestId('latch-view-ProfileWallets') }
}

describe('useLatchConnections / useLatchConnection', () => {
  it('list every connected wallet, the active first, every account, and follow switch and disconnect', async () => {
    const latch = await connectTwo()
    const wrapper = ({ children }: { children: ReactNode }) => (
      <LatchProvider latch={latch} wagmi={false}>
        {children}
      </LatchProvider>
    )
    const { result } = renderHook(() => ({ all: useLatchConnections(), active: useLatchConnection() }), { wrapper })

    expect(result.current.all.connections.map((c) => [c.connectorId, c.name, c.accounts, c.isActive])).toEqual([
      ['beta', 'Beta', [bob, carol], true],
      ['alpha', 'Alpha', [alice], false],
    ])
    expect(result.current.all.allAccounts).toEqual([bob, carol, alice])
    expect(result.current.active.connection?.connectorId).toBe('beta')

    await act(() => result.current.all.switchConnection('alpha'))
    expect(result.current.active.connection).toMatchObject({ connectorId: 'alpha', accounts: [alice], chainId: 1 })

    await act(() => result.current.all.disconnect('alpha'))
    expect(result.current.all.connections.map((c) => [c.connectorId, c.isActive])).toEqual([['beta', true]])
    expect(result.current.all.allAccounts).toEqual([bob, carol])
  })
})

describe('ProfileWallets view', () => {
  it('is reached from Account and lists each wallet: icon, name, truncated address, the active one marked', async () => {
    const latch = await connectTwo()
    const { view } = await openProfileWallets(latch)

    expect(within(view).getByRole('list', { name: 'Connected wallets' })).toBeTruthy()
    const beta = within(view).getByTestId('latch-profile-wallet-beta')
    expect(beta.textContent).toContain('Beta')
    expect(within(beta).getByTestId('latch-profile-wallet-address').textContent).toBe('0x70…dC79c8')
    expect(within(beta).getByTestId('latch-profile-wallet-active').textContent).toBe('Active')
    expect(beta.getAttribute('aria-current')).toBe('true')
    const alpha = within(view).getByTestId('latch-profile-wallet-alpha')
    expect(within(alpha).queryByTestId('latch-profile-wallet-active')).toBeNull()
    expect(within(alpha).getByRole('button', { name: 'Switch to Alpha' })).toBeTruthy()
    // Monogram placeholders stand in for the icons the mock connectors lack.
    expect(within(alpha).getByTestId('latch-wallet-placeholder').textContent).toBe('A')
  })

  it('the Account entry counts the connected wallets', async () => {
    const latch = await connectTwo()
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    await user.click(screen.getByTestId('latch-account-button'))
    expect((await screen.findByTestId('latch-account-wallets')).textContent).toBe('2 wallets connected')
  })

  it('switches the active wallet', async () => {
    const latch = await connectTwo()
    const { user, view } = await openProfileWallets(latch)

    await user.click(within(view).getByRole('button', { name: 'Switch to Alpha' }))

    await waitFor(() => expect(within(view).getByTestId('latch-profile-wallet-alpha').getAttribute('aria-current')).toBe('true'))
    expect(latch._internal.connection.getState().namespaces.eip155).toMatchObject({ address: alice, connectorId: 'alpha' })
    expect(within(view).getByRole('button', { name: 'Switch to Beta' })).toBeTruthy()
  })

  it('disconnects one wallet and keeps the other, which becomes active', async () => {
    const latch = await connectTwo()
    const { user, view } = await openProfileWallets(latch)

    await user.click(within(view).getByRole('button', { name: 'Disconnect Beta' }))

    await waitFor(() => expect(within(view).queryByTestId('latch-profile-wallet-beta')).toBeNull())
    expect(within(view).getByTestId('latch-profile-wallet-alpha').getAttribute('aria-current')).toBe('true')
    expect(latch._internal.connection.getState().namespaces.eip155).toMatchObject({ status: 'connected', address: alice })
  })

  it('Add wallet opens Connect and keeps the wallets already connected', async () => {
    const latch = await connectTwo()
    const { user, view } = await openProfileWallets(latch)

    await user.click(within(view).getByRole('button', { name: 'Add wallet' }))

    expect(await screen.findByTestId('latch-view-Connect')).toBeTruthy()
    expect(listConnections(latch._internal.connection, 'eip155').map((c) => c.connectorId)).toEqual(['beta', 'alpha'])
  })

  it('lists the e-mail wallet as a connection beside an extension wallet', async () => {
    const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
    const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2' })
    const embedded = latch._internal.embedded!
    // A frame whose visitor is signed in.
    const request = vi.fn(async (name: string) => {
      if (name !== 'GET_USER') throw new Error(`unexpected ${name}`)
      return { email: 'visitor@example.com', address: carol, chainId: 31337, accounts: [] }
    })
    vi.spyOn(embedded, 'frame').mockResolvedValue({ request, signOut: async () => undefined } as never)
    await act(() => latch._internal.connection.connect(embedded.connectorId, { chainId: 31337 }))
    await act(async () => void (await connect(latch._internal.connection.getWagmiConfig(), { connector: wallet('alpha', 'Alpha', [alice]) })))
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <ConnectButton />
      </LatchProvider>,
    )
    act(() => void latch.open({ view: 'Account' }))
    fireEvent.click(await screen.findByTestId('latch-account-wallets'))
    const view = await screen.findByTestId('latch-view-ProfileWallets')

    const rows = within(view).getAllByRole('listitem')
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['latch-profile-wallet-alpha', `latch-profile-wallet-${embedded.connectorId}`])
    expect(within(rows[1]!).getByTestId('latch-profile-wallet-address').getAttribute('title')).toBe(carol)
    latch.destroy()
  })
})
