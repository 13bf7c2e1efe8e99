import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createLatch, type Latch } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const EOA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SMART = '0x1111111111111111111111111111111111111111'
const latches: Latch[] = []

afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  localStorage.clear()
})

/** A Latch whose e-mail wallet is connected to a frame that has (or lacks) a smart account on the chain. */
async function connected(hasSmartAccount: boolean, networks: 'fail' | number[] = [31337]) {
  const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2' })
  latches.push(latch)
  const wallet = latch._internal.embedded!
  let type: 'eoa' | 'smartAccount' = 'eoa'
  const request = vi.fn(async (name: string, payload?: { type: 'eoa' | 'smartAccount' }) => {
    switch (name) {
      case 'GET_USER':
        return { email: 'visitor@example.com', address: type === 'eoa' ? EOA : SMART, chainId: 31337, accounts: [], preferredAccountType: type, smartAccountDeployed: false }
      case 'SET_PREFERRED_ACCOUNT':
        if (payload!.type === 'smartAccount' && !hasSmartAccount) throw new Error('This application might not support Smart Accounts')
        type = payload!.type
        return { type, address: type === 'eoa' ? EOA : SMART }
      case 'GET_SMART_ACCOUNT_ENABLED_NETWORKS':
        if (networks === 'fail') throw new Error('frame failed')
        return { smartAccountEnabledNetworks: networks }
    }
    throw new Error(`unexpected ${name}`)
  })
  vi.spyOn(wallet, 'frame').mockResolvedValue({ request, signOut: async () => undefined } as never)
  // What a finished login leaves in the page's storage (the frame client's connect calls are mocked away).
  localStorage.setItem('latch:embedded:emailLoginUsed', 'true')
  await act(() => latch._internal.connection.connect(wallet.connectorId, { chainId: 31337 }))
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <ConnectButton />
    </LatchProvider>,
  )
  act(() => void latch.open({ view: 'Account' }))
  await screen.findByTestId('latch-account-type-row', undefined, { timeout: 5000 })
  return latch
}

describe('Account view: account type', () => {
  it('shows the EOA, switches to the smart account (not deployed yet) and the connected address follows, then back', async () => {
    const latch = await connected(true)
    expect(screen.getByTestId('latch-account-type').textContent).toBe('EOA')
    fireEvent.click(screen.getByTestId('latch-account-type-switch'))
    await waitFor(() => expect(screen.getByTestId('latch-account-type').textContent).toBe('Smart account'))
    expect(screen.getByTestId('latch-account-not-deployed').textContent).toBe('Deployed with its first transaction')
    await waitFor(() => expect(latch.getState().account.address).toBe(SMART))
    expect(JSON.parse(localStorage.getItem('latch:preferredAccountTypes')!)).toEqual({ eip155: 'smartAccount' })
    fireEvent.click(screen.getByTestId('latch-account-type-switch'))
    await waitFor(() => expect(latch.getState().account.address).toBe(EOA))
    expect(screen.getByTestId('latch-account-type').textContent).toBe('EOA')
  })

  it('stays on the EOA with the spec message when the smart account is refused', async () => {
    const latch = await connected(false)
    fireEvent.click(screen.getByTestId('latch-account-type-switch'))
    expect((await screen.findByTestId('latch-account-type-error')).textContent).toBe('This application might not support Smart Accounts')
    expect(screen.getByTestId('latch-account-type').textContent).toBe('EOA')
    expect(latch.getState().account.address).toBe(EOA)
  })

  it('without smart accounts on the chain (or when the frame cannot list them) shows the message and no switch', async () => {
    for (const networks of ['fail', [1]] as const) {
      await connected(true, networks === 'fail' ? 'fail' : [...networks])
      expect((await screen.findByTestId('latch-account-type-error')).textContent).toBe('This application might not support Smart Accounts')
      expect((screen.getByTestId('latch-account-type-switch') as HTMLButtonElement).disabled).toBe(true)
      expect(localStorage.getItem('latch:embedded:smartAccountEnabledNetworks')).toBe(networks === 'fail' ? '' : '1')
      cleanup()
      for (const l of latches.splice(0)) l.destroy()
    }
  })
})
