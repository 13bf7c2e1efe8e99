import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
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

  it('preload() loads once, and a view mounted after it renders at once, with no fallback', async () => {
    const load = vi.fn(async () => ({ default: () => <p data-testid="view">the view</p> }))
    const View = lazyRetry(load)
    await Promise.all([View.preload(), View.preload()])
    expect(load).toHaveBeenCalledTimes(1)
    render(page(View, 1))
    // Synchronously in the render: plain lazy() would show the fallback first.
    expect(screen.getByTestId('view').textContent).toBe('the view')
    expect(screen.queryByTestId('loading')).toBeNull()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('a render and a preload share one load', async () => {
    const load = vi.fn(async () => ({ default: () => <p data-testid="view">the view</p> }))
    const View = lazyRetry(load)
    render(page(View, 1))
    expect(screen.getByTestId('loading')).toBeTruthy()
    await act(() => View.preload())
    expect(screen.getByTestId('view')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('a failed preload is forgotten: the next render loads again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const load = failingOnce()
    const View = lazyRetry(load)
    await expect(View.preload()).rejects.toThrow('chunk failed')
    render(page(View, 1))
    expect((await screen.findByTestId('view')).textContent).toBe('the view')
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('a view that mounted while loading keeps its state once loaded (its element type does not change)', async () => {
    let resolve!: (m: { default: ComponentType }) => void
    const load = vi.fn(() => new Promise<{ default: ComponentType }>((r) => (resolve = r)))
    function Field() {
      const [text, setText] = useState('')
      return <input data-testid="field" value={text} onChange={(e) => setText(e.target.value)} />
    }
    const View = lazyRetry(load)
    const { rerender } = render(page(View, 1))
    await act(async () => resolve({ default: Field }))
    fireEvent.change(screen.getByTestId('field'), { target: { value: 'typed' } })
    // A parent's re-render after the load: the same instance, still lazy()'s element, keeps what was typed.
    rerender(page(View, 1))
    expect((screen.getByTestId('field') as HTMLInputElement).value).toBe('typed')
  })
})
