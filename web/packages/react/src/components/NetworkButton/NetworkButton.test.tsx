import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { AccountButton } from '../AccountButton/AccountButton'
import { NetworkButton } from './NetworkButton'

describe('NetworkButton', () => {
  it('shows the active network and opens the read-only Networks view', async () => {
    const { user } = renderWithLatch(<NetworkButton />)
    const button = screen.getByTestId('latch-network-button')
    expect(button.textContent).toBe('Ethereum')
    await user.click(button)
    expect(screen.getByRole('dialog', { name: 'Choose network' })).toBeTruthy()
    const active = screen.getByTestId('latch-network-1')
    expect(active.getAttribute('aria-current')).toBe('true')
    expect(active.textContent).toContain('Active')
    expect(screen.getByTestId('latch-network-11155111').textContent).toContain('Testnet')
    expect(screen.getByTestId('latch-network-8453').textContent).not.toContain('Testnet')
  })
})

describe('NetworkButton with network switching off', () => {
  it('shows the network but is disabled and opens nothing', async () => {
    const latch = createFakeLatch({ state: { enableNetworkSwitch: false } })
    const { user } = renderWithLatch(<NetworkButton />, { latch })
    const button = screen.getByTestId('latch-network-button') as HTMLButtonElement
    expect(button.textContent).toBe('Ethereum')
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
