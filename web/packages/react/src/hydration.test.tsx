import { describe, expect, it, vi } from 'vitest'
import { act, screen } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { ConnectButton } from './components/ConnectButton/ConnectButton'
import { LatchProvider } from './components/LatchProvider/LatchProvider'
import { NetworkButton } from './components/NetworkButton/NetworkButton'
import { createConnectedFakeLatch, createFakeLatch, type FakeLatch } from './test/createFakeLatch'

async function hydrate(latch: FakeLatch) {
  const app = (
    <LatchProvider latch={latch}>
      <ConnectButton />
      <NetworkButton />
    </LatchProvider>
  )
  const container = document.createElement('div')
  container.innerHTML = renderToString(app)
  document.body.appendChild(container)
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const recoverable = vi.fn()
  const root = await act(async () => hydrateRoot(container, app, { onRecoverableError: recoverable }))
  const calls = [...errors.mock.calls]
  errors.mockRestore()
  return { root, container, errors: calls, recoverable }
}

describe('hydration', () => {
  it('hydrates the disconnected button without mismatch, then mounts the modal portal', async () => {
    const latch = createFakeLatch()
    const { root, errors, recoverable } = await hydrate(latch)
    expect(errors).toEqual([])
    expect(recoverable).not.toHaveBeenCalled()
    expect(latch.initCalls).toBe(1)
    await act(async () => latch.open())
    expect(screen.getByRole('dialog', { name: 'Connect Wallet' })).toBeTruthy()
    act(() => root.unmount())
  })

  it('hydrates the connected button without mismatch', async () => {
    const { root, errors, recoverable, container } = await hydrate(createConnectedFakeLatch())
    expect(errors).toEqual([])
    expect(recoverable).not.toHaveBeenCalled()
    expect(container.textContent).toContain('0x12…345678')
    act(() => root.unmount())
  })
})
