import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { createFakeLatch, makeWallet } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { AllWalletsIcon, allWalletsImages } from './AllWalletsIcon'
import { ConnectView } from './ConnectView'

const images = () => screen.getAllByTestId('latch-all-wallets-icon-cell').map((c) => c.querySelector('img')?.getAttribute('src') ?? null)

describe('AllWalletsIcon', () => {
  it("the Connect view's All wallets row shows the registry's first four wallet icons in a 2×2 grid", async () => {
    const registry = Array.from({ length: 6 }, (_, i) => makeWallet(i + 1))
    renderWithLatch(<ConnectView />, { latch: createFakeLatch({ registry }) })
    await waitFor(() => expect(images()).toEqual(['https://img.test/w1.png', 'https://img.test/w2.png', 'https://img.test/w3.png', 'https://img.test/w4.png']))
    const icon = screen.getByTestId('latch-all-wallets').querySelector('[data-testid="latch-all-wallets-icon"]')
    expect(icon?.getAttribute('aria-hidden')).toBe('true')
  })

  it('skips wallets without an image, and a failed image leaves its cell a plain square', () => {
    const picked = allWalletsImages([makeWallet(1), makeWallet(2, { imageUrl: undefined }), makeWallet(3)])
    expect(picked).toEqual(['https://img.test/w1.png', 'https://img.test/w3.png'])
    renderWithLatch(<AllWalletsIcon images={picked} />)
    expect(images()).toEqual(['https://img.test/w1.png', 'https://img.test/w3.png', null, null])
    fireEvent.error(screen.getAllByTestId('latch-all-wallets-icon-cell')[0]!.querySelector('img')!)
    expect(images()).toEqual([null, 'https://img.test/w3.png', null, null])
  })

  it('is a drawn grid of four squares when the registry cannot be read', async () => {
    renderWithLatch(<ConnectView />, { latch: createFakeLatch({ fetchError: true }) })
    await new Promise((r) => setTimeout(r, 0))
    expect(images()).toEqual([null, null, null, null])
  })
})
