import type { ThemeMode } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchThemeReturnType = {
  themeMode: ThemeMode
  /** The resolved `--latch-*` custom properties. */
  themeVariables: Record<string, string>
  setThemeMode: (mode: ThemeMode) => void
  setThemeVariables: (vars: Record<string, string | number>) => void
}

/** Reads and sets the theme. */
export function useLatchTheme(): UseLatchThemeReturnType {
  const latch = useLatchInstance()
  const { themeMode, themeVariables } = useLatchSelector((state) => ({
    themeMode: state.themeMode,
    themeVariables: state.themeVars,
  }))
  return {
    themeMode,
    themeVariables,
    setThemeMode: (mode) => latch.setThemeMode(mode),
    setThemeVariables: (vars) => latch.setThemeVariables(vars),
  }
}
