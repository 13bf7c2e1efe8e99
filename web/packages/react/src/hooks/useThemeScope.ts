import type { CSSProperties } from 'react'
import { useLatchSelector } from './useLatchSelector'

/**
 * Attributes that scope Latch CSS on an element: `[data-latch]`, `data-theme`, the theme variables inline, and the
 * active locale's `lang` and `dir` (right to left for ar, fa and he).
 */
export type ThemeScopeProps = { 'data-latch': ''; 'data-theme': string; style: CSSProperties; lang: string; dir: 'ltr' | 'rtl' }

/** The theme scope of the current state, for a component's root element. */
export function useThemeScope(): ThemeScopeProps {
  const { themeMode, themeVars, locale, dir } = useLatchSelector((state) => ({
    themeMode: state.themeMode,
    themeVars: state.themeVars,
    locale: state.locale,
    dir: state.dir,
  }))
  return { 'data-latch': '', 'data-theme': themeMode, style: themeVars as CSSProperties, lang: locale, dir }
}
