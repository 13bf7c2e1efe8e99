// The theme defaults as CSS, for @latchkit/react's stylesheet: the variables themeToCssVars sets inline, declared
// under [data-latch] so that they apply before any script runs (server-rendered HTML without styles inlined, a
// first paint before hydration). web/scripts/theme-css.mjs writes them into the stylesheet at build time, and
// theme-css.test.ts fails when the committed stylesheet and theme-tokens.ts differ.
import { themeToCssVars } from './theme'
import { FIXED_TOKENS } from './theme-tokens'

/** The comment lines around the generated block; everything between them is replaced. */
export const THEME_DEFAULTS_BEGIN =
  '/* Theme defaults, generated from @latchkit/core src/theme-tokens.ts by web/scripts/theme-css.mjs (run by the build).\n' +
  ' * Do not edit: change theme-tokens.ts. Variables a component sets inline (themeVariables) win over these. */'
export const THEME_DEFAULTS_END = '/* End of the generated theme defaults. */'

function rule(selector: string, vars: Record<string, string>): string {
  const lines = Object.entries(vars).map(([name, value]) => `  ${name}: ${value};`)
  return `${selector} {\n${lines.join('\n')}\n}`
}

function variablesRead(css: string): Set<string> {
  return new Set([...css.matchAll(/var\((--latch-[\w-]+)/g)].map((match) => match[1] as string))
}

/**
 * The light mode's variables and the fixed tokens on [data-latch]; what dark mode changes on its data-theme.
 * Only the variables `rules` read (directly or through another token) are declared: the stylesheet ships in every
 * first load, and a variable it never reads (--latch-color-scheme) would only add bytes.
 */
export function themeDefaultsCss(rules: string): string {
  const light = themeToCssVars('light')
  const dark = themeToCssVars('dark')
  const fixed = Object.fromEntries(Object.entries(FIXED_TOKENS).map(([name, value]) => [`--latch-${name}`, value]))
  const candidates: Record<string, string> = { ...light, ...fixed }
  const read = variablesRead(rules)
  for (let size = -1; size !== read.size; ) {
    size = read.size
    for (const name of [...read]) for (const inner of variablesRead(candidates[name] ?? '')) read.add(inner)
  }
  const declared = (vars: Record<string, string>) => Object.fromEntries(Object.entries(vars).filter(([name]) => read.has(name)))
  const darkChanges = Object.fromEntries(Object.entries(dark).filter(([name, value]) => light[name] !== value))
  return [
    THEME_DEFAULTS_BEGIN,
    '',
    rule('[data-latch]', declared(candidates)),
    '',
    rule("[data-latch][data-theme='dark']", declared(darkChanges)),
    '',
    THEME_DEFAULTS_END,
  ].join('\n')
}

/**
 * The stylesheet with its generated block replaced by the current defaults; throws when the markers are missing.
 * `rules` are all the rules the defaults serve (a stylesheet split into several sheets passes them all); by default
 * the stylesheet's own, outside the block.
 */
export function withThemeDefaults(stylesheet: string, rules?: string): string {
  const begin = stylesheet.indexOf(THEME_DEFAULTS_BEGIN)
  const end = stylesheet.indexOf(THEME_DEFAULTS_END)
  if (begin < 0 || end < begin) {
    throw new Error('the stylesheet has no generated theme block (its begin and end comments are missing)')
  }
  const before = stylesheet.slice(0, begin)
  const after = stylesheet.slice(end + THEME_DEFAULTS_END.length)
  return before + themeDefaultsCss(rules ?? before + after) + after
}
