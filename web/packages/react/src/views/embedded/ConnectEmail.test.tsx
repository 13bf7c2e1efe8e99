import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createLatch, type Latch, type LatchOptions } from '@latchkit/core'
import { defineChain } from 'viem'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'

const dev = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const latches: Latch[] = []

/** A real Latch (no frame is created until a login starts) with the Connect view open. */
async function openConnect(extra: Partial<LatchOptions>) {
  const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev], apiUrl: 'http://127.0.0.1:1', walletConnect: false, frameUrl: 'http://127.0.0.1:2', ...extra })
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

/** The Connect view's sections, top to bottom. */
function sections(): string[] {
  const view = screen.getByTestId('latch-view-Connect')
  // The footer ("Haven't got a wallet?", legal links) is not a connect method.
  return [...view.children].filter((el) => !el.matches('.latch-link-button, .latch-legal')).map((el) =>
    // A section counts once it shows something (the socials' buttons come in a chunk of their own).
    el.matches('.latch-connect-section') ? `${el.childElementCount ? '' : 'empty '}${el.getAttribute('data-method')}` : el.textContent === 'or' ? 'or' : el.className,
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
})

describe('Connect view with the e-mail wallet', () => {
  it('shows the e-mail field first (email, social, wallet by default), and no frame before a login starts', async () => {
    await openConnect({})
    await screen.findByTestId('latch-email-input')
    // latchd cannot be reached here: the default socials apply (spec §7), their buttons a chunk of their own.
    await waitFor(() => expect(sections()).toEqual(['email', 'or', 'social', 'or', 'wallet']))
    expect(screen.getByTestId('latch-email-input').getAttribute('type')).toBe('email')
    expect(document.querySelector('iframe')).toBeNull()
    // The e-mail wallet's connector is not listed as a wallet.
    expect(screen.queryByText('E-mail wallet')).toBeNull()
  })

  it('follows features.connectMethodsOrder', async () => {
    await openConnect({ features: { connectMethodsOrder: ['wallet', 'email', 'social'] } })
    await screen.findByTestId('latch-email-input')
    await waitFor(() => expect(sections()).toEqual(['wallet', 'or', 'email', 'or', 'social']))
  })

  it('has no e-mail field without a frameUrl or with features.email false', async () => {
    await openConnect({ frameUrl: undefined })
    expect(screen.queryByTestId('latch-email-login')).toBeNull()
    expect(sections()).toEqual(['wallet'])
    cleanup()
    for (const l of latches.splice(0)) l.destroy()
    document.body.innerHTML = ''
    await openConnect({ features: { email: false } })
    expect(sections()).toEqual(['wallet'])
  })

  it("follows latchd's project config: the field goes when the project has e-mail login off, stays when on", async () => {
    for (const email of [false, true]) {
      // latchd's GET /appkit/v1/config: e-mail login is social_login's 'email' entry.
      const features = [{ id: 'activity', isEnabled: true, config: null }, ...(email ? [{ id: 'social_login', isEnabled: true, config: ['email'] }] : [])]
      vi.stubGlobal(
        'fetch',
        vi.fn(async (input: RequestInfo | URL) => {
          const path = new URL(input instanceof Request ? input.url : String(input)).pathname
          if (path === '/appkit/v1/config') return Response.json({ features })
          if (path === '/projects/v1/origins') return Response.json({ allowedOrigins: [] })
          if (path === '/getAnalyticsConfig') return Response.json({ isAnalyticsEnabled: false })
          return Response.json({ count: 0, data: [] })
        }),
      )
      const latch = await openConnect({})
      await act(() => latch.init())
      expect(latch.getState().features.email).toBe(email)
      if (email) await screen.findByTestId('latch-email-input')
      expect(sections()).toEqual(email ? ['email', 'or', 'wallet'] : ['wallet'])
      cleanup()
      for (const l of latches.splice(0)) l.destroy()
      document.body.innerHTML = ''
      vi.unstubAllGlobals()
    }
  })

  it('answers a bad address with the spec message, sending nothing', async () => {
    await openConnect({})
    const input = await screen.findByTestId('latch-email-input')
    fireEvent.change(input, { target: { value: 'not-an-email' } })
    fireEvent.click(screen.getByTestId('latch-email-submit'))
    expect((await screen.findByTestId('latch-email-error')).textContent).toBe('Invalid email address')
    expect(document.querySelector('iframe')).toBeNull()
  })
})
