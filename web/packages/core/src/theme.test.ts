import { describe, expect, it } from 'vitest'
import { createThemeController, themeToCssVars, ThemeError } from './theme'

describe('themeToCssVars', () => {
  it('applies the spec defaults', () => {
    const vars = themeToCssVars('dark')
    expect(vars).toMatchObject({
      '--latch-color-scheme': 'dark',
      '--latch-font-size-master': '10px',
      '--latch-border-radius-master': '4px',
      '--latch-z-index': '999',
      '--latch-modal-width': '360px',
    })
    expect(Object.keys(vars).every((k) => k.startsWith('--latch-'))).toBe(true)
    expect(themeToCssVars('light')['--latch-color-bg']).not.toBe(vars['--latch-color-bg'])
  })

  it('maps overrides, numbers as px', () => {
    const vars = themeToCssVars('light', { accent: '#ff0000', fontSizeMaster: 12, zIndex: 50, colorMix: '#00ff00', colorMixStrength: 20 })
    expect(vars).toMatchObject({
      '--latch-accent': '#ff0000',
      '--latch-font-size-master': '12px',
      '--latch-z-index': '50',
      '--latch-color-mix': '#00ff00',
      '--latch-color-mix-strength': '20%',
    })
  })

  it('rejects invalid themes with a clear message', () => {
    expect(() => themeToCssVars('blue' as 'light')).toThrow('themeMode must be "light" or "dark", not "blue"')
    expect(() => themeToCssVars('light', { fontSizeMaster: 'big' })).toThrow(ThemeError)
    expect(() => themeToCssVars('light', { zIndex: 1.5 })).toThrow('zIndex must be an integer')
    expect(() => themeToCssVars('light', { accent: 'red; background: url(x)' })).toThrow('plain CSS value')
  })
})

describe('theme controller', () => {
  it('merges variables and refuses bad ones without changing state', () => {
    const theme = createThemeController('light', { accent: '#111111' })
    theme.setThemeVariables({ zIndex: 10 })
    expect(theme.store.getState().themeVariables).toEqual({ accent: '#111111', zIndex: 10 })
    expect(() => theme.setThemeVariables({ modalWidth: 'wide' })).toThrow(ThemeError)
    expect(theme.store.getState().themeVariables).toEqual({ accent: '#111111', zIndex: 10 })
    expect(() => theme.setThemeMode('sepia' as 'dark')).toThrow(ThemeError)
    theme.setThemeMode('dark')
    expect(theme.cssVars()['--latch-color-scheme']).toBe('dark')
  })

  it('defaults to light where matchMedia is missing (Node)', () => {
    expect(createThemeController().store.getState().themeMode).toBe('light')
  })
})
