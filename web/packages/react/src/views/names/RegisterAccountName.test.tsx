import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen } from '@testing-library/react'
import { ConnectButton } from '../../components/ConnectButton/ConnectButton'
import type { EmbeddedState } from '@latchkit/core'
import { connectedAddress, createConnectedFakeLatch, type FakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

/** latchd's profile routes: `names` maps an address to its name; suggestions know `taken`. */
function stubLatchd(names: Record<string, string>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input))
    const reverse = /^\/v1\/profile\/reverse\/(.+)$/.exec(url.pathname)
    if (reverse) {
      const name = names[decodeURIComponent(reverse[1]!).toLowerCase()]
      return json(name ? [{ name, registered_at: '2026-01-01T00:00:00Z', updated_at: null, attributes: {}, addresses: {} }] : [])
    }
    const wanted = /^\/v1\/profile\/suggestions\/(.+)$/.exec(url.pathname)?.[1]
    if (wanted === 'taken') return json({ suggestions: [{ name: 'taken.latch.test', registered: true }, { name: 'taken1.latch.test', registered: false }] })
    if (wanted === 'supp0rt') {
      const reason = 'supp0rt.latch.test looks like support.latch.test, which is reserved'
      return json({ suggestions: [{ name: 'supp0rt.latch.test', registered: true, reason }, { name: 'supp0rt1.latch.test', registered: false }] })
    }
    if (wanted) return json({ suggestions: [{ name: `${wanted}.latch.test`, registered: false }] })
    return new Response('{}', { status: 404 })
  })
}

afterEach(() => vi.restoreAllMocks())


/** Makes the connected account the embedded wallet's (spec §5: only the auth connector registers names). */
function asEmbedded(latch: FakeLatch) {
  const address = connectedAddress
  const embedded: EmbeddedState = {
    step: 'connected',
    email: 'visitor@example.com',
    user: { address, chainId: 1, accounts: [{ address, type: 'eoa' }] },
    error: undefined,
    approval: undefined,
    frame: 'ready',
    resendAt: 0,
    update: { step: 'idle', newEmail: undefined, error: undefined },
  }
  latch._internal.root.setState({ embedded })
}

describe('names in the widget', () => {
  it('Account offers Choose name; the form shows the rules as typed, a taken name with free names like it, and a free one', async () => {
    const fetch = stubLatchd({})
    const latch = createConnectedFakeLatch()
    asEmbedded(latch)
    const { user } = renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'Account' }))
    await user.click(await screen.findByTestId('latch-account-choose-name', {}, { timeout: 10_000 }))
    const input = await screen.findByTestId('latch-register-name-input')

    await user.type(input, 'ab')
    expect((await screen.findByTestId('latch-register-name-error')).textContent).toBe('A name must be at least 4 characters')
    await user.type(input, '.c')
    expect(screen.getByTestId('latch-register-name-error').textContent).toBe('A name is one label, without dots')
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/suggestions/'))).toBe(false)

    await user.clear(input)
    await user.type(input, 'taken')
    expect((await screen.findByTestId('latch-register-name-taken')).textContent).toBe('taken.latch.test is taken')
    expect((screen.getByTestId('latch-register-name-submit') as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByTestId('latch-register-name-suggestion-taken1'))
    expect((input as HTMLInputElement).value).toBe('taken1')
    expect((await screen.findByTestId('latch-register-name-available')).textContent).toBe('taken1.latch.test is available')
    expect((screen.getByTestId('latch-register-name-submit') as HTMLButtonElement).disabled).toBe(false)

    // A reserved name or a look-alike: latchd's reason, before anything is signed.
    await user.clear(input)
    await user.type(input, 'supp0rt')
    expect((await screen.findByTestId('latch-register-name-taken')).textContent).toBe('supp0rt.latch.test looks like support.latch.test, which is reserved')
    expect((screen.getByTestId('latch-register-name-submit') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('latch-register-name-suggestion-supp0rt1')).toBeTruthy()
  })

  it("opened for an external wallet's account, the view says why it cannot register (spec §5) and offers no form", async () => {
    const fetch = stubLatchd({})
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'RegisterAccountName' }))
    const reason = await screen.findByTestId('latch-register-name-unavailable')
    expect(reason.textContent).toBe('Address or auth connector not found')
    expect(reason.getAttribute('role')).toBe('alert')
    expect(screen.getByTestId('latch-view-RegisterAccountName').textContent).toContain('e-mail or social login wallet')
    expect(screen.queryByTestId('latch-register-name-input')).toBeNull()
    expect(screen.queryByTestId('latch-register-name-submit')).toBeNull()
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/v1/profile/suggestions/'))).toBe(false)
    // Once the account is the embedded wallet's, the form is there.
    act(() => asEmbedded(latch))
    expect(await screen.findByTestId('latch-register-name-input')).toBeTruthy()
  })

  it("Account shows the account's name from latchd instead of Choose name", async () => {
    stubLatchd({ [connectedAddress.toLowerCase()]: 'alice.latch.test' })
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'Account' }))
    expect((await screen.findByTestId('latch-account-name')).textContent).toBe('alice.latch.test')
    expect(screen.queryByTestId('latch-account-choose-name')).toBeNull()
  })

  it("an external wallet's account shows its name but no Choose name: only the embedded wallet registers (spec §5)", async () => {
    const fetch = stubLatchd({})
    const latch = createConnectedFakeLatch()
    renderWithLatch(<ConnectButton />, { latch })
    act(() => void latch.open({ view: 'Account' }))
    await screen.findByTestId('latch-view-Account')
    await vi.waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).includes('/v1/profile/reverse/'))).toBe(true))
    await act(async () => {})
    expect(screen.queryByTestId('latch-account-choose-name')).toBeNull()
  })
})
