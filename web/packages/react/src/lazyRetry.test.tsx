import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { act, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { lazyRetry } from './lazyRetry'

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? <p data-testid="failed" /> : this.props.children
  }
}

const page = (View: ComponentType, key: number) => (
  <Boundary key={key}>
    <Suspense fallback={<p data-testid="loading" />}>
      <View />
    </Suspense>
  </Boundary>
)

/** A load that fails once, then gives the view. */
const failingOnce = () =>
  vi
    .fn<() => Promise<{ default: () => ReactNode }>>()
    .mockRejectedValueOnce(new Error('chunk failed'))
    .mockResolvedValue({ default: () => <p data-testid="view">the view</p> })

describe('lazyRetry', () => {
  it('loads again after a failed load, where lazy() fails for good', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // lazy(): the failure is kept, so even a new tree fails again without loading.
    const plainLoad = failingOnce()
    const Plain = lazy(plainLoad)
    const { rerender } = render(page(Plain, 1))
    expect(await screen.findByTestId('failed')).toBeTruthy()
    await act(async () => rerender(page(Plain, 2)))
    expect(await screen.findByTestId('failed')).toBeTruthy()
    expect(plainLoad).toHaveBeenCalledTimes(1)

    // lazyRetry: React renders again after the failure, which loads again and shows the view.
    const load = failingOnce()
    const View = lazyRetry(load)
    await act(async () => rerender(page(View, 3)))
    expect((await screen.findByTestId('view')).textContent).toBe('the view')
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('loads once when the first load succeeds', async () => {
    const load = vi.fn(async () => ({ default: ({ label }: { label: string }) => <p data-testid="view">{label}</p> }))
    const View = lazyRetry(load)
    const { rerender } = render(<Suspense fallback={null}><View label="a" /></Suspense>)
    expect((await screen.findByTestId('view')).textContent).toBe('a')
    rerender(<Suspense fallback={null}><View label="b" /></Suspense>)
    expect(screen.getByTestId('view').textContent).toBe('b')
    expect(load).toHaveBeenCalledTimes(1)
  })
})
