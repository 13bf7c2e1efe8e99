// SIWXSignMessage and useLatchSession over a real Latch (core's flow, wagmi's
// mock connector, an app's own SIWXConfig in memory): the view opens after
// connect, signs, shows 'Signature declined', and Cancel follows the mode.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatch, loadSiwxModule, type Latch, type SIWXConfig, type SIWXSession } from '@latchkit/core'
import { LatchProvider } from '../../components/LatchProvider/LatchProvider'
import { useLatchSession } from '../../hooks/useLatchSession'

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('{}', { status: 404 }))
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function memoryConfig(required: boolean) {
  const sessions: SIWXSession[] = []
  const config: SIWXConfig = {
    createMessage: async ({ accountAddress, chainId }) => {
      const data = { accountAddress, chainId, domain: 'app.example', uri: 'https://app.example', version: '1', nonce: 'nonce0123', issuedAt: '2026-01-01T00:00:00Z' }
      return { ...data, toString: () => `app.example signs in ${accountAddress}` }
    },
    addSession: async (session) => void sessions.push(session),
    revokeSession: async () => void sessions.splice(0),
    setSessions: async (list) => void sessions.splice(0, sessions.length, ...list),
    getSessions: async () => [...sessions],
    getRequired: () => required,
  }
  return { config, sessions }
}

/** The app's own use of the hook, beside the widget. */
function SessionProbe() {
  const session = useLatchSession()
  return (
    <output data-testid="probe">
      {session.status}|{session.required ? 'required' : 'optional'}|{session.session?.data.accountAddress ?? ''}|{session.error ?? ''}
    </output>
  )
}

async function setup(required: boolean) {
  const { config, sessions } = memoryConfig(required)
  const wagmiConfig = createConfig({
    chains: [mainnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    transports: { [mainnet.id]: custom({ request: async () => '0x0' }) },
  })
  const latch: Latch = createLatch({ networks: [mainnet], wagmiConfig, siwx: config, metadata: { name: 'Example app', description: '', url: 'https://app.example', icons: [] } })
  ;(await loadSiwxModule()).startSiwx(latch)
  render(
    <LatchProvider latch={latch} wagmi={false}>
      <SessionProbe />
    </LatchProvider>,
  )
  await act(() => latch.connectWallet({ id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }))
  const sign = vi.spyOn(latch._internal.clients.get('eip155')!, 'signMessage').mockResolvedValue('0xsigned')
  const view = await screen.findByTestId('latch-view-SIWXSignMessage')
  return { latch, sessions, sign, view, user: userEvent.setup() }
}

describe('SIWXSignMessage', () => {
  it('asks to sign for the app; Sign stores the session, closes the modal and the hook sees it', async () => {
    const { sessions, sign, view, user } = await setup(false)
    expect(view.textContent).toContain('Example app needs to connect to your wallet')
    expect(screen.getByTestId('probe').textContent).toContain('signed-out|optional||')
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy()
    await user.click(screen.getByTestId('latch-siwx-sign'))
    await waitFor(() => expect(screen.queryByTestId('latch-view-SIWXSignMessage')).toBeNull())
    expect(sign).toHaveBeenCalledWith({ message: `app.example signs in ${alice}`, address: alice })
    expect(sessions).toHaveLength(1)
    expect(screen.getByTestId('probe').textContent).toContain(`signed-in|optional|${alice}|`)
  })

  it("required: no close button, a decline shows 'Signature declined' and keeps the view; Cancel disconnects to Connect", async () => {
    const { latch, sign, user } = await setup(true)
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
    expect(screen.getByTestId('latch-view-SIWXSignMessage').textContent).toContain('Canceling will disconnect you.')
    sign.mockRejectedValueOnce(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await user.click(screen.getByTestId('latch-siwx-sign'))
    expect((await screen.findByTestId('latch-siwx-error')).textContent).toContain('Signature declined')
    expect(screen.getByTestId('probe').textContent).toContain('signed-out|required||Signature declined')

    await user.click(screen.getByTestId('latch-siwx-cancel'))
    await screen.findByTestId('latch-view-Connect')
    expect(latch.getState().account.status).toBe('disconnected')
  })

  it('optional: Cancel closes the modal and the wallet stays connected', async () => {
    const { latch, user } = await setup(false)
    await user.click(screen.getByTestId('latch-siwx-cancel'))
    await waitFor(() => expect(latch.getState().open).toBe(false))
    expect(latch.getState()).toMatchObject({ view: 'Connect', account: { status: 'connected' } })
  })
})

describe('useLatchSession', () => {
  it('is disabled without options.siwx', () => {
    const latch = createLatch({ networks: [mainnet] })
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <SessionProbe />
      </LatchProvider>,
    )
    expect(screen.getByTestId('probe').textContent).toContain('disabled|optional||')
  })
})
