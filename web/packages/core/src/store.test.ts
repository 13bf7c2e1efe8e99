import { describe, expect, it, vi } from 'vitest'
import { createStore, derivedStore, mountSlice } from './store'

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

describe('createStore: changes made by listeners', () => {
  it('tells every listener of each change in order, a nested change after the round in progress', () => {
    const store = createStore({ n: 0 })
    const seen: string[] = []
    store.subscribe((s, p) => {
      seen.push(`a ${p.n}->${s.n}`)
      if (s.n === 1) store.setState({ n: 2 })
    })
    store.subscribe((s, p) => seen.push(`b ${p.n}->${s.n}`))
    store.setState({ n: 1 })
    expect(store.getState().n).toBe(2)
    // b hears of 0->1 before 1->2, never 0->2 then 0->1.
    expect(seen).toEqual(['a 0->1', 'b 0->1', 'a 1->2', 'b 1->2'])
  })

  it('shows a nested change to getState at once', () => {
    const store = createStore({ n: 0, m: 0 })
    let read = -1
    store.subscribe((s) => {
      if (s.n === 1 && s.m === 0) {
        store.setState({ m: 5 })
        read = store.getState().m
      }
    })
    store.setState({ n: 1 })
    expect(read).toBe(5)
  })
})

describe('sliceOf and mountSlice', () => {
  it('reads and writes one key of the root, and tells its listeners only of that key', () => {
    const root = createStore({} as { a: { x: number }; b: { y: number } })
    const a = mountSlice(root, 'a', { x: 1 })
    const b = mountSlice(root, 'b', { y: 1 })
    const onA = vi.fn()
    a.subscribe(onA)
    b.setState({ y: 2 })
    expect(onA).not.toHaveBeenCalled()
    expect(root.getState()).toEqual({ a: { x: 1 }, b: { y: 2 } })
    const before = root.getState()
    a.setState({ x: 1 })
    expect(root.getState()).toBe(before)
    a.setState((s) => ({ x: s.x + 1 }))
    expect(onA).toHaveBeenCalledWith({ x: 2 }, { x: 1 })
    expect(root.getState().a).toBe(a.getState())
  })
})

describe('derivedStore', () => {
  it('derives once per root change and keeps its snapshot when nothing it shows changed', () => {
    const root = createStore({ shown: 1, hidden: 1 })
    const derive = vi.fn(() => ({ shown: root.getState().shown * 10 }))
    const view = derivedStore(root, derive)
    const listener = vi.fn()
    view.subscribe(listener)
    const first = view.getState()
    expect(view.getState()).toBe(first)
    root.setState({ hidden: 2 })
    expect(view.getState()).toBe(first)
    expect(listener).not.toHaveBeenCalled()
    root.setState({ shown: 2 })
    expect(view.getState()).toEqual({ shown: 20 })
    expect(listener).toHaveBeenCalledWith({ shown: 20 }, first)
    expect(derive).toHaveBeenCalledTimes(3)
  })
})
