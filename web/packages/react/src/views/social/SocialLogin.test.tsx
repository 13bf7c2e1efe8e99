import { afterEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createLatch, type Latch } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { socialsFor } from './SocialLogin'

describe('socialsFor', () => {
  it("keeps the project's order and the socials latchd serves (the OAuth providers and farcaster)", () => {
    expect(socialsFor(['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook'])).toEqual(['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(['github', 'email', 'myspace'])).toEqual(['github'])
  })

  it('filters providers per Telegram mini-app platform (spec §2)', () => {
    const all = ['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook']
    expect(socialsFor(all, 'ios')).toEqual(['x', 'farcaster', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(all, 'macos')).toEqual(['google', 'farcaster', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(all, 'android')).toEqual(['google', 'farcaster', 'discord', 'apple', 'github'])
    expect(socialsFor(all, 'tdesktop')).toEqual(all)
  })
})

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const latches: Latch[] = []
afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
})

/** A real Latch with the modal open (latchd cannot be reached: the default socials apply). */
async function openModal() {
  const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2' })
  latches.push(latch)
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <ConnectButton />
    </LatchProvider>,
  )
  act(() => void latch.open({ view: 'Connect' }))
  await screen.findByTestId('latch-view-Connect')
  return latch
}

const buttons = (container: HTMLElement) => [...container.querySelectorAll('[data-testid^="latch-social-"]')].map((e) => e.getAttribute('data-testid'))

describe('the social views', () => {
  it("Connect shows the first three socials in spec §9's order, and More opens ConnectSocials with every one", async () => {
    const latch = await openModal()
    const list = await screen.findByTestId('latch-social-login')
    await waitFor(() => expect(buttons(list)).toEqual(['latch-social-google', 'latch-social-x', 'latch-social-farcaster', 'latch-social-more']))
    fireEvent.click(screen.getByTestId('latch-social-more'))
    const all = await screen.findByTestId('latch-all-socials')
    expect(latch.getState().view).toBe('ConnectSocials')
    expect(buttons(all)).toEqual(['latch-social-google', 'latch-social-x', 'latch-social-farcaster', 'latch-social-discord', 'latch-social-apple', 'latch-social-github', 'latch-social-facebook'])
    act(() => latch._internal.router.goBack())
    await screen.findByTestId('latch-social-login')
  })

  it('ConnectingFarcaster shows the QR code of the channel, then the error with Try again', async () => {
    const latch = await openModal()
    const embedded = latch._internal.embedded!
    const uri = 'farcaster://connect?channelToken=t1&nonce=n1'
    act(() => embedded.store.setState({ social: { provider: 'farcaster', step: 'qr', error: undefined, uri } }))
    act(() => latch._internal.router.push('ConnectingFarcaster'))
    await screen.findByTestId('latch-farcaster-view')
    await screen.findByTestId('latch-wc-qr-svg')
    expect(screen.getByTestId('latch-farcaster-status').textContent).toBe('Scan this QR code with your phone to sign in with Farcaster')
    expect(screen.getByTestId('latch-farcaster-open').getAttribute('href')).toBe(uri)
    act(() => embedded.store.setState({ social: { provider: 'farcaster', step: 'error', error: 'This Farcaster sign-in has expired: please start again' } }))
    expect((await screen.findByTestId('latch-farcaster-error')).textContent).toBe('This Farcaster sign-in has expired: please start again')
    expect(screen.queryByTestId('latch-wc-qr-svg')).toBeNull()
    screen.getByTestId('latch-farcaster-retry')
  })
})
