import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { THEME_DEFAULTS_BEGIN, THEME_DEFAULTS_END, withThemeDefaults } from './theme-css'
import { themeToCssVars } from './theme'

// @latchkit/react's stylesheet (src/styles.css imports the sheets of src/styles/): its theme defaults, in theme.css,
// come from this package's tokens.
const sheets = new URL('../../react/src/styles/', import.meta.url)
const stylesheet = readFileSync(new URL('theme.css', sheets), 'utf8')
const generated = stylesheet.slice(stylesheet.indexOf(THEME_DEFAULTS_BEGIN), stylesheet.indexOf(THEME_DEFAULTS_END))
const handWritten = readdirSync(sheets)
  .filter((name) => name.endsWith('.css'))
  .map((name) => readFileSync(new URL(name, sheets), 'utf8'))
  .join('\n')
  .replace(generated, '')

function declarations(css: string): Record<string, string> {
  return Object.fromEntries([...css.matchAll(/(--latch-[\w-]+): ([^;]+);/g)].map((m) => [m[1], m[2]]))
}

function variablesRead(css: string): Set<string> {
  return new Set([...css.matchAll(/var\((--latch-[\w-]+)\)/g)].map((m) => m[1] as string))
}

describe("@latchkit/react's stylesheet", () => {
  it('declares the theme defaults of theme-tokens.ts (else: cd web && node scripts/theme-css.mjs)', () => {
    expect(withThemeDefaults(stylesheet, handWritten)).toBe(stylesheet)
  })

  it("declares themeToCssVars's light values by default and its dark ones under data-theme='dark'", () => {
    const [lightRule, darkRule] = generated.split("[data-latch][data-theme='dark']") as [string, string]
    const light = declarations(lightRule)
    const dark = { ...light, ...declarations(darkRule) }
    const [lightVars, darkVars] = [themeToCssVars('light'), themeToCssVars('dark')]
    const themed = [...variablesRead(handWritten)].filter((name) => name in lightVars)
    expect(themed.length).toBeGreaterThan(10)
    for (const name of themed) {
      expect(light[name]).toBe(lightVars[name])
      expect(dark[name]).toBe(darkVars[name])
    }
  })

  it('writes no colour outside the generated block and declares no variable there', () => {
    expect(handWritten.match(/#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(/gi)).toBeNull()
    expect(handWritten.match(/--latch-[\w-]+\s*:/g)).toBeNull()
  })

  it('reads only variables the generated block declares', () => {
    const declared = declarations(generated)
    expect([...variablesRead(handWritten)].filter((name) => declared[name] === undefined)).toEqual([])
  })
})
