import { describe, expect, it, vi } from 'vitest'
import { alertMessage, createAlertController } from './alerts'

describe('alert controller', () => {
  it('shows an alert with its variant and the spec title', () => {
    const alerts = createAlertController({ log: vi.fn() })
    expect(alerts.show('PROJECT_ID_NOT_CONFIGURED')).toBe(true)
    expect(alerts.store.getState()).toMatchObject({
      open: true,
      variant: 'error',
      code: 'PROJECT_ID_NOT_CONFIGURED',
      title: 'Project ID Not Configured',
    })
    alerts.show('LOCAL_CONFIGURATION_IGNORED', { features: 'email' })
    expect(alerts.store.getState()).toMatchObject({ variant: 'warning', title: 'Local configuration ignored' })
    expect(alerts.store.getState().description).toContain('for email was ignored')
  })

  it('shows each code once per session', () => {
    const alerts = createAlertController({ log: vi.fn() })
    alerts.show('ORIGIN_NOT_ALLOWED', { origin: 'https://a.example' })
    alerts.close()
    expect(alerts.store.getState().open).toBe(false)
    expect(alerts.show('ORIGIN_NOT_ALLOWED', { origin: 'https://a.example' })).toBe(false)
    expect(alerts.store.getState().open).toBe(false)
    expect(alerts.wasShown('ORIGIN_NOT_ALLOWED')).toBe(true)
  })

  it('only logs when debug is off', () => {
    const log = vi.fn()
    const alerts = createAlertController({ debug: false, log })
    expect(alerts.show('SERVER_ERROR')).toBe(false)
    expect(alerts.store.getState().open).toBe(false)
    expect(log).toHaveBeenCalledWith('error', expect.stringContaining('Server Error'))
  })

  it('the banner text follows the locale: the description key with the alert’s params', () => {
    const alerts = createAlertController({ log: vi.fn() })
    alerts.show('ORIGIN_NOT_ALLOWED', { origin: 'https://a.example' })
    const { code, params } = alerts.store.getState()
    expect(alertMessage(code!, params)).toBe('Origin https://a.example is not on the project’s allowlist. Add it to the project’s allowed origins on your latchd.')
    const de = { 'alert.originNotAllowedLong': 'Der Ursprung {origin} steht nicht auf der Liste des Projekts.' }
    expect(alertMessage(code!, params, de, 'de')).toBe('Der Ursprung https://a.example steht nicht auf der Liste des Projekts.')
  })
})
