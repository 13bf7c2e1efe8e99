import { describe, expect, it, vi } from 'vitest'
import { createStore } from './store'

describe('createStore', () => {
  it('merges partial state and notifies with (state, prev)', () => {
    const store = createStore({ a: 1, b: 'x' })
    const listener = vi.fn()
    store.subscribe(listener)
    const prev = store.getState()
    store.setState({ a: 2 })
    expect(store.getState()).toEqual({ a: 2, b: 'x' })
    expect(listener).toHaveBeenCalledWith({ a: 2, b: 'x' }, prev)
  })

  it('accepts an updater function', () => {
    const store = createStore({ n: 1 })
    store.setState((s) => ({ n: s.n + 1 }))
    expect(store.getState().n).toBe(2)
  })

  it('keeps the same snapshot and notifies no one when nothing changes', () => {
    const store = createStore({ a: 1, list: [1] })
    const listener = vi.fn()
    store.subscribe(listener)
    const before = store.getState()
    store.setState({ a: 1, list: before.list })
    store.setState({})
    expect(store.getState()).toBe(before)
    expect(listener).not.toHaveBeenCalled()
  })

  it('stops notifying after unsubscribe', () => {
    const store = createStore({ a: 1 })
    const listener = vi.fn()
    const unsubscribe = store.subscribe(listener)
    unsubscribe()
    store.setState({ a: 2 })
    expect(listener).not.toHaveBeenCalled()
  })
})
