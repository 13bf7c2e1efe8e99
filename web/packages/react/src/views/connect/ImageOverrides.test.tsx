// The app's own icons (chainImages, connectorImages) reach the views through a real core instance, and an image that
// fails still falls back to the monogram.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { createLatch, type Latch, type LatchOptions } from '@latchkit/core'
import { base, mainnet } from 'viem/chains'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'

let latch: Latch | undefined
afterEach(() => {
  latch?.destroy()
  latch = undefined
  vi.restoreAllMocks()
})

function mount(options: Partial<LatchOptions>) {
  // No latchd behind apiUrl: the registry request fails at once, so the lists hold only the app's own wallets.
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'))
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  latch = createLatch({ projectId: 'a'.repeat(32), networks: [mainnet, base], apiUrl: 'http://127.0.0.1:1', walletConnect: false, ...options })
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <ConnectButton />
    </LatchProvider>,
  )
  return latch
}

describe('chainImages and connectorImages', () => {
  it("the network list shows the app's icon for a chain, latchd's for the others", async () => {
    const l = mount({ chainImages: { 8453: 'https://cdn.example/base.svg' } })
    act(() => void l.open({ view: 'Networks' }))
    expect((await screen.findByTestId('latch-network-8453')).querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/base.svg')
    expect(screen.getByTestId('latch-network-1').querySelector('img')?.getAttribute('src')).toMatch(/^http:\/\/127\.0\.0\.1:1\/public\/getAssetImage\/eip155%3A1\?/)
  })

  it("the wallet list shows the app's icon for a wallet, and the monogram when it fails", async () => {
    const l = mount({
      customWallets: [{ id: 'acme', name: 'Acme Wallet', image_url: 'https://acme.test/own.png' }],
      connectorImages: { acme: '/icons/acme.png' },
    })
    act(() => void l.open({ view: 'Connect' }))
    const row = await screen.findByTestId('latch-wallet-acme')
    const img = row.querySelector('img')!
    expect(img.getAttribute('src')).toBe('/icons/acme.png')
    fireEvent.error(img)
    expect(row.querySelector('img')).toBeNull()
    expect(within(row).getByTestId('latch-wallet-placeholder').textContent).toBe('A')
  })
})
