import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { THEME_DEFAULTS_BEGIN, THEME_DEFAULTS_END, themeDefaultsCss, withThemeDefaults } from './theme-css'
import { themeToCssVars } from './theme'

// @latchkit/react's stylesheet: its theme defaults come from this package's tokens.
const stylesheet = readFileSync(new URL('../../react/src/styles.css', import.meta.url), 'utf8')
const generated = stylesheet.slice(stylesheet.indexOf(THEME_DEFAULTS_BEGIN), stylesheet.indexOf(THEME_DEFAULTS_END))
const handWritten = stylesheet.replace(generated, '')

describe("@latchkit/react's stylesheet", () => {
  it('declares the theme defaults of theme-tokens.ts (else: cd web && node scripts/theme-css.mjs)', () => {
    expect(withThemeDefaults(stylesheet)).toBe(stylesheet)
  })

  it('declares every variable themeToCssVars sets, with the light values by default', () => {
    for (const [name, value] of Object.entries(themeToCssVars('light'))) {
      expect(generated).toContain(`\n  ${name}: ${value};\n`)
    }
    expect(themeDefaultsCss()).toContain("[data-latch][data-theme='dark'] {\n  --latch-color-scheme: dark;\n")
  })

  it('writes no colour outside the generated block and declares no variable there', () => {
    expect(handWritten.match(/#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(/gi)).toBeNull()
    expect(handWritten.match(/--latch-[\w-]+\s*:/g)).toBeNull()
  })

  it('reads only variables the generated block declares', () => {
    const used = new Set([...handWritten.matchAll(/var\((--latch-[\w-]+)\)/g)].map((m) => m[1]))
    const declared = new Set([...generated.matchAll(/(--latch-[\w-]+):/g)].map((m) => m[1]))
    expect([...used].filter((name) => !declared.has(name))).toEqual([])
  })
})
