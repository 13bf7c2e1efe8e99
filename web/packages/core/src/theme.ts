// Theme as a contract (STYLE.md): themeMode + themeVariables compile to
// `--latch-*` custom properties that the React components scope under
// `[data-latch]` and use exclusively. The values themselves live in theme-tokens.ts.
import { createStore, type SliceFactory, type Store } from './store'
import { DEFAULT_THEME_VARIABLES, QR_CODE_COLOR, THEME_PALETTES } from './theme-tokens'

/** Theme modes (spec §2, §5: light or dark). */
export const THEME_MODES = ['light', 'dark'] as const
/** A theme mode. */
export type ThemeMode = (typeof THEME_MODES)[number]

/** Overridable theme variables (appkit-public-api `themeVariables`, Latch names). */
export interface ThemeVariables {
  /** Accent colour of buttons and highlights. */
  readonly accent?: string
  readonly fontFamily?: string
  /** Base font size every text size scales from; a number means px. */
  readonly fontSizeMaster?: string | number
  /** Base radius every corner scales from; a number means px. */
  readonly borderRadiusMaster?: string | number
  readonly zIndex?: number
  /** Modal width; a number means px. */
  readonly modalWidth?: string | number
  /** A colour mixed into the backgrounds, and how strongly (0–100 %). */
  readonly colorMix?: string
  readonly colorMixStrength?: number
  /** Colour of the WalletConnect QR code. */
  readonly qrColor?: string
}

// Exported from here as before; the values are theme-tokens.ts's.
export { DEFAULT_THEME_VARIABLES }

/** A theme error names the offending option. */
export class ThemeError extends Error {
  override name = 'ThemeError'
}

/** assertThemeMode throws unless mode is 'light' or 'dark'. */
export function assertThemeMode(mode: unknown): asserts mode is ThemeMode {
  if (!THEME_MODES.includes(mode as ThemeMode)) {
    throw new ThemeError(`themeMode must be "light" or "dark", not ${JSON.stringify(mode)}`)
  }
}

function length(name: string, value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new ThemeError(`themeVariables.${name} must be a non-negative size, not ${value}`)
    return `${value}px`
  }
  if (!/^\d+(\.\d+)?(px|rem|em|%|vw|vh)$/.test(value.trim())) {
    throw new ThemeError(`themeVariables.${name} must be a CSS length such as "10px", not ${JSON.stringify(value)}`)
  }
  return value.trim()
}

function text(name: string, value: string): string {
  // Values land in a style attribute; refuse anything that could close the declaration.
  if (value.trim() === '' || /[;{}<>]/.test(value)) {
    throw new ThemeError(`themeVariables.${name} must be a plain CSS value, not ${JSON.stringify(value)}`)
  }
  return value.trim()
}

/**
 * themeToCssVars compiles a theme to `--latch-*` custom properties, after
 * validating it (mode light|dark, lengths, z-index an integer, mix strength 0–100).
 */
export function themeToCssVars(mode: ThemeMode, variables: ThemeVariables = {}): Record<string, string> {
  assertThemeMode(mode)
  const v = { ...DEFAULT_THEME_VARIABLES, ...variables }
  if (!Number.isInteger(v.zIndex)) throw new ThemeError(`themeVariables.zIndex must be an integer, not ${v.zIndex}`)
  const vars: Record<string, string> = {
    '--latch-color-scheme': mode,
    '--latch-accent': text('accent', v.accent),
    '--latch-font-family': text('fontFamily', v.fontFamily),
    '--latch-font-size-master': length('fontSizeMaster', v.fontSizeMaster),
    '--latch-border-radius-master': length('borderRadiusMaster', v.borderRadiusMaster),
    '--latch-z-index': String(v.zIndex),
    '--latch-modal-width': length('modalWidth', v.modalWidth),
  }
  for (const [name, colour] of Object.entries(THEME_PALETTES[mode])) vars[`--latch-color-${name}`] = colour
  if (v.colorMix !== undefined) {
    const strength = v.colorMixStrength ?? 0
    if (!Number.isFinite(strength) || strength < 0 || strength > 100) {
      throw new ThemeError(`themeVariables.colorMixStrength must be between 0 and 100, not ${strength}`)
    }
    vars['--latch-color-mix'] = text('colorMix', v.colorMix)
    vars['--latch-color-mix-strength'] = `${strength}%`
  }
  vars['--latch-qr-color'] = v.qrColor === undefined ? QR_CODE_COLOR : text('qrColor', v.qrColor)
  return vars
}

/**
 * systemThemeMode reads the visitor's preference (AppKit's default when no
 * themeMode is given); 'light' where matchMedia does not exist (SSR, Node).
 */
export function systemThemeMode(): ThemeMode {
  const matchMedia = typeof globalThis.matchMedia === 'function' ? globalThis.matchMedia : undefined
  return matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** Theme state. */
export interface ThemeState {
  readonly themeMode: ThemeMode
  readonly themeVariables: ThemeVariables
}

/** The theme controller behind useLatchTheme. */
export interface ThemeController {
  readonly store: Store<ThemeState>
  /** Sets the mode; throws ThemeError unless light or dark. */
  setThemeMode(mode: ThemeMode): void
  /** Merges variables into the current ones; invalid values throw and change nothing. */
  setThemeVariables(variables: ThemeVariables): void
  /** The current theme as CSS custom properties. */
  cssVars(): Record<string, string>
}

/** createThemeController validates the initial theme and returns its controller. */
export function createThemeController(
  mode: ThemeMode = systemThemeMode(),
  variables: ThemeVariables = {},
  slice: SliceFactory<ThemeState> = createStore,
): ThemeController {
  themeToCssVars(mode, variables)
  const store = slice({ themeMode: mode, themeVariables: variables })
  return {
    store,
    setThemeMode(next) {
      assertThemeMode(next)
      store.setState({ themeMode: next })
    },
    setThemeVariables(next) {
      const merged = { ...store.getState().themeVariables, ...next }
      // Validate before storing so a bad value is rejected, never half-applied.
      themeToCssVars(store.getState().themeMode, merged)
      store.setState({ themeVariables: merged })
    },
    cssVars: () => themeToCssVars(store.getState().themeMode, store.getState().themeVariables),
  }
}
