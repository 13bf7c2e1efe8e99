import { describe, expect, it, vi } from 'vitest'
import { createEventBus } from './events'

describe('event bus', () => {
  it('delivers events to subscribers and keeps the latest in its store', () => {
    const bus = createEventBus(() => 42)
    const listener = vi.fn()
    const unsubscribe = bus.subscribeEvents(listener)
    bus.sendEvent({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'browser' } })
    expect(listener).toHaveBeenCalledWith({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'browser' } }, 42)
    expect(bus.store.getState()).toEqual({ timestamp: 42, data: { type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'browser' } } })
    unsubscribe()
    bus.sendEvent({ type: 'track', event: 'MODAL_CLOSE' })
    expect(listener).toHaveBeenCalledOnce()
  })

  it('a throwing subscriber does not stop the others', () => {
    const bus = createEventBus()
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const after = vi.fn()
    bus.subscribeEvents(() => {
      throw new Error('app bug')
    })
    bus.subscribeEvents(after)
    bus.sendEvent({ type: 'error', event: 'CONNECT_ERROR' })
    expect(after).toHaveBeenCalledOnce()
    error.mockRestore()
  })
})
