import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { LatchOptionsError, type LatchOptions } from '../options'
import { FIXED_OPTIONS, resolveFeaturesUpdate, resolveOptionsUpdate } from './validate'

describe('resolveOptionsUpdate / resolveFeaturesUpdate', () => {
  const current: LatchOptions = { networks: [mainnet], projectId: 'p', themeMode: 'dark', features: { send: true, email: false } }

  it('merges the update over the options in force and resolves the whole', () => {
    const { options, opts } = resolveOptionsUpdate(current, { themeMode: 'light', excludeWalletIds: ['a'] })
    expect(options).toMatchObject({ projectId: 'p', themeMode: 'light', excludeWalletIds: ['a'] })
    expect(opts.themeMode).toBe('light')
    expect(opts.excludeWalletIds).toEqual(['a'])
    expect(resolveFeaturesUpdate(current, { send: false }).opts.features).toMatchObject({ send: false, email: false })
  })

  it.each(FIXED_OPTIONS)('refuses %s', (name) => {
    expect(() => resolveOptionsUpdate(current, { [name]: undefined })).toThrow(`\`${name}\` cannot be changed after createLatch`)
  })

  it('points networks at addNetwork/removeNetwork', () => {
    expect(() => resolveOptionsUpdate(current, { networks: [mainnet] })).toThrow('use addNetwork/removeNetwork')
  })

  it('validates as createLatch does and refuses a change of a remote-managed feature', () => {
    expect(() => resolveOptionsUpdate(current, { themeMode: 'blue' as 'dark' })).toThrow(LatchOptionsError)
    expect(() => resolveFeaturesUpdate(current, { connectorTypeOrder: ['qr' as 'recent'] })).toThrow('`features.connectorTypeOrder` holds "qr"')
    expect(() => resolveFeaturesUpdate(current, { email: true })).toThrow("`features.email` is decided by latchd's project config")
    // The value in force again is no change.
    expect(resolveFeaturesUpdate(current, { email: false }).opts.features.email).toBe(false)
  })
})
