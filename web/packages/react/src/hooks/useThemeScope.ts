import type { CSSProperties } from 'react'
import { useLatchSelector } from './useLatchSelector'

/** Attributes that scope Latch CSS on an element: `[data-latch]`, `data-theme`, and the theme variables inline. */
export type ThemeScopeProps = { 'data-latch': ''; 'data-theme': string; style: CSSProperties }

/** The theme scope of the current state, for a component's root element. */
export function useThemeScope(): ThemeScopeProps {
  const { themeMode, themeVars } = useLatchSelector((state) => ({ themeMode: state.themeMode, themeVars: state.themeVars }))
  return { 'data-latch': '', 'data-theme': themeMode, style: themeVars as CSSProperties }
}
