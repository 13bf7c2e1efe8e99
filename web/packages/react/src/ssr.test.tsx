// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { ConnectButton } from './components/ConnectButton/ConnectButton'
import { LatchProvider } from './components/LatchProvider/LatchProvider'
import { NetworkButton } from './components/NetworkButton/NetworkButton'
import { createConnectedFakeLatch, createFakeLatch } from './test/createFakeLatch'

describe('server rendering', () => {
  it('renders the connect button without a DOM and without calling init', () => {
    expect(typeof document).toBe('undefined')
    const latch = createFakeLatch({ state: { open: true } })
    const html = renderToString(
      <LatchProvider latch={latch}>
        <ConnectButton />
        <NetworkButton />
      </LatchProvider>,
    )
    expect(html).toContain('Connect Wallet')
    expect(html).toContain('data-latch')
    // the modal is client-only, even when the state says open
    expect(html).not.toContain('role="dialog"')
    expect(latch.initCalls).toBe(0)
  })

  it('renders the connected account', () => {
    const html = renderToString(
      <LatchProvider latch={createConnectedFakeLatch()}>
        <ConnectButton />
      </LatchProvider>,
    )
    expect(html).toContain('0x12…345678')
    expect(html).toContain('1.234 ETH')
  })
})
