import { describe, expect, it } from 'vitest'
import { act, screen } from '@testing-library/react'
import { createConnectedFakeLatch, createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { AccountButton } from '../AccountButton/AccountButton'
import { NetworkButton } from './NetworkButton'

describe('NetworkButton', () => {
  it('shows the active network and opens the read-only Networks view', async () => {
    const { user } = renderWithLatch(<NetworkButton />)
    const button = screen.getByTestId('latch-network-button')
    expect(screen.getByTestId('latch-network-button-name').textContent).toBe('Ethereum')
    await user.click(button)
    expect(screen.getByRole('dialog', { name: 'Choose network' })).toBeTruthy()
    const active = screen.getByTestId('latch-network-1')
    expect(active.getAttribute('aria-current')).toBe('true')
    expect(active.textContent).toContain('Active')
    expect(screen.getByTestId('latch-network-11155111').textContent).toContain('Testnet')
    expect(screen.getByTestId('latch-network-8453').textContent).not.toContain('Testnet')
  })
})

describe('NetworkButton icon and unsupported chain', () => {
  it("shows the active network's icon from latchd's image route, its initial until it loads", () => {
    const latch = createFakeLatch()
    renderWithLatch(<NetworkButton />, { latch })
    const button = screen.getByTestId('latch-network-button')
    expect(button.querySelector('img')?.getAttribute('src')).toBe(latch.assetImageUrl('eip155:1'))
    expect(button.querySelector('[data-testid="latch-wallet-placeholder"]')?.textContent).toBe('E')
  })

  it('warns "Switch network" while the wallet is on a chain the app does not list, and opens UnsupportedChain', async () => {
    const latch = createConnectedFakeLatch({ state: { unsupportedChainId: 1337 } })
    const { user } = renderWithLatch(<NetworkButton />, { latch })
    const button = screen.getByRole('button', { name: 'Switch network' })
    expect(button.hasAttribute('data-unsupported')).toBe(true)
    expect(button.querySelector('img')).toBeNull()
    const description = document.getElementById(button.getAttribute('aria-describedby')!)
    expect(description?.textContent).toBe('Your wallet is on a network this app does not support')
    await user.click(button)
    expect(latch.getState()).toMatchObject({ open: true, view: 'UnsupportedChain' })
    // Back on a listed chain, the button shows the network again.
    act(() => latch.setState({ unsupportedChainId: undefined }))
    expect(screen.getByTestId('latch-network-button-name').textContent).toBe('Ethereum')
    expect(screen.getByTestId('latch-network-button').hasAttribute('data-unsupported')).toBe(false)
  })

  it('the label comes from the active locale', () => {
    const latch = createConnectedFakeLatch({ state: { unsupportedChainId: 1337, locale: 'de', catalogue: { 'button.switchNetwork': 'Netzwerk wechseln' } } })
    renderWithLatch(<NetworkButton />, { latch })
    expect(screen.getByTestId('latch-network-button-name').textContent).toBe('Netzwerk wechseln')
  })
})

describe('NetworkButton with network switching off', () => {
  it('shows the network but is disabled and opens nothing', async () => {
    const latch = createFakeLatch({ state: { enableNetworkSwitch: false } })
    const { user } = renderWithLatch(<NetworkButton />, { latch })
    const button = screen.getByTestId('latch-network-button') as HTMLButtonElement
    expect(screen.getByTestId('latch-network-button-name').textContent).toBe('Ethereum')
    expect(button.disabled).toBe(true)
    await user.click(button)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('the headless form reports it and its open does nothing', async () => {
    const latch = createFakeLatch({ state: { enableNetworkSwitch: false } })
    let props: { switchEnabled: boolean; openNetworkModal: () => void } | undefined
    renderWithLatch(
      <NetworkButton.Custom>
        {(p) => {
          props = p
          return null
        }}
      </NetworkButton.Custom>,
      { latch },
    )
    expect(props?.switchEnabled).toBe(false)
    props?.openNetworkModal()
    expect(latch.getState().open).toBe(false)
  })
})

describe('AccountButton', () => {
  it('renders nothing when disconnected', () => {
    renderWithLatch(<AccountButton />)
    expect(screen.queryByTestId('latch-account-button')).toBeNull()
  })
})
