// The modal's dialog is a lazy chunk: each test imports LatchProvider afresh (vi.resetModules), so the dialog is
// not yet loaded as it is for the other test files (src/test/setup.ts).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createFakeLatch } from '../../test/createFakeLatch'

afterEach(() => {
  cleanup()
  vi.doUnmock('./loadLazyViews')
  vi.resetModules()
})

/** A fresh LatchProvider and ConnectButton, with loadLazyViews replaced by `load` when given. */
async function freshModules(load?: () => Promise<typeof import('./lazyViews')>) {
  vi.resetModules()
  const loadLazyViews = vi.fn(load ?? (() => import('./lazyViews')))
  vi.doMock('./loadLazyViews', () => ({ loadLazyViews }))
  const { LatchProvider } = await import('../LatchProvider/LatchProvider')
  const { ConnectButton } = await import('../ConnectButton/ConnectButton')
  const { loadModalDialog } = await import('./LatchModal')
  return { LatchProvider, ConnectButton, loadModalDialog, loadLazyViews }
}

describe('LatchModal (lazy dialog)', () => {
  it('fetches the dialog when it mounts, before any open, so the first click opens it at once', async () => {
    const { LatchProvider, ConnectButton, loadModalDialog, loadLazyViews } = await freshModules()
    const latch = createFakeLatch()
    const user = userEvent.setup()
    render(
      <LatchProvider latch={latch} wagmi={false}>
        <ConnectButton />
      </LatchProvider>,
    )
    expect(loadLazyViews).toHaveBeenCalledTimes(1)
    expect(latch.getState().open).toBe(false)
    await act(() => loadModalDialog())
    expect(loadLazyViews).toHaveBeenCalledTimes(1) // the mount's load, not a second one

    await user.click(screen.getByTestId('latch-connect-button'))
    expect(screen.getByRole('dialog')).toBeTruthy()
    expect(screen.getByTestId('latch-view-Connect')).toBeTruthy()
  })

  it('an open before the dialog arrived shows it when it does', async () => {
    const { LatchProvider } = await freshModules()
    const latch = createFakeLatch()
    render(<LatchProvider latch={latch} wagmi={false} />)
    act(() => void latch.open())
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(await screen.findByTestId('latch-view-Connect')).toBeTruthy()
  })

  it('a failed load is tried again at the next open', async () => {
    let calls = 0
    const { LatchProvider, loadLazyViews } = await freshModules(() =>
      ++calls === 1 ? Promise.reject(new Error('offline')) : import('./lazyViews'),
    )
    const latch = createFakeLatch()
    render(<LatchProvider latch={latch} wagmi={false} />)
    await vi.waitFor(() => expect(loadLazyViews).toHaveBeenCalledTimes(1))
    await act(async () => {}) // the failure settles; nothing is shown
    expect(screen.queryByRole('dialog')).toBeNull()

    act(() => void latch.open())
    expect(await screen.findByTestId('latch-view-Connect')).toBeTruthy()
    expect(loadLazyViews).toHaveBeenCalledTimes(2)
  })
})
