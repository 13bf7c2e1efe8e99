// The one source of Latch's design tokens. theme.ts compiles them (with the app's themeVariables) to the `--latch-*`
// custom properties a component sets inline; web/scripts/theme-css.mjs writes the same defaults into
// @latchkit/react's styles.css, so they apply before any script runs. Components read only the variables.

/** Defaults (spec §2, §9: font size 10px, radius 4px, z-index 999, modal width 360px). */
export const DEFAULT_THEME_VARIABLES = {
  accent: '#3396ff',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  fontSizeMaster: '10px',
  borderRadiusMaster: '4px',
  zIndex: 999,
  modalWidth: '360px',
} as const

/** Colours of each mode; components read them as --latch-color-*. */
export const THEME_PALETTES = {
  light: {
    bg: '#ffffff',
    'bg-secondary': '#f3f4f6',
    fg: '#141414',
    'fg-secondary': '#5c5c5c',
    border: 'rgba(0, 0, 0, 0.08)',
    overlay: 'rgba(0, 0, 0, 0.3)',
    success: '#2bb673',
    // #bf3520: 5.1:1 on bg-secondary (WCAG AA wants 4.5:1 for text; #df4a34 was 3.7:1).
    error: '#bf3520',
    warning: '#e8a200',
    // Text on the accent: near-black is 6.1:1 on the default accent, white only 3.0:1.
    'on-accent': '#141414',
  },
  dark: {
    bg: '#141414',
    'bg-secondary': '#202020',
    fg: '#ffffff',
    'fg-secondary': '#9a9a9a',
    border: 'rgba(255, 255, 255, 0.1)',
    overlay: 'rgba(0, 0, 0, 0.6)',
    success: '#30a46b',
    error: '#f25a67',
    warning: '#f5b400',
    'on-accent': '#141414',
  },
} as const satisfies Record<'light' | 'dark', Readonly<Record<string, string>>>

/**
 * The WalletConnect QR code's dots (--latch-qr-color, which themeVariables.qrColor replaces): dark on the light
 * square of --latch-qr-background in either mode, which phone cameras read reliably.
 */
export const QR_CODE_COLOR = '#141414'

/**
 * Tokens an app does not set, the same in both modes: `--latch-<name>`. Durations are the spec's animation
 * timings (header text 120 ms, modal height 150 ms, view transition 150 ms, modal shake 500 ms); the last
 * colours derive from the palette and accent on the element that sets them.
 */
export const FIXED_TOKENS = {
  'duration-height': '150ms',
  'duration-view': '150ms',
  'duration-header': '120ms',
  'duration-shake': '500ms',
  'shadow-modal': '0 calc(var(--latch-font-size-master) * 0.8) calc(var(--latch-font-size-master) * 3.2) rgba(0, 0, 0, 0.2)',
  'shadow-tab': '0 1px 2px rgba(0, 0, 0, 0.08)',
  'qr-background': '#ffffff',
  'color-info': 'var(--latch-accent)',
  'color-bg-hover': 'color-mix(in srgb, var(--latch-color-fg) 6%, var(--latch-color-bg-secondary))',
} as const
