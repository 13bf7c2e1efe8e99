// Issue 24: every user-facing string of the widget comes from a catalogue. A
// source scan of the React components fails on English left in JSX: text
// between tags and the text attributes a visitor or a screen reader meets
// (aria-label, placeholder, title, alt). A line that must keep a literal (a
// brand name, a symbol) says why with an `i18n-ignore` comment. Nor may a
// component read a strings object directly (`socialStrings.more`) or fill a
// placeholder by hand (`.replace('{name}', …)`): that is English whatever the
// locale; `useStrings(xxxStrings)` looks the key up in the active one.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function components(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'test') components(path, out)
    } else if (name.endsWith('.tsx') && !name.endsWith('.test.tsx')) out.push(path)
  }
  return out
}

/** Attributes whose text a visitor or a screen reader meets. */
const textAttributes = new Set(['aria-label', 'aria-description', 'placeholder', 'title', 'alt', 'label'])

/** Text that reads as words: two letters in a row (a symbol, a number or a `data-` value does not). */
const wordy = (text: string) => /\p{L}{2,}/u.test(text)

/** A strings catalogue by its name: `socialStrings`, `SIWX_STRINGS`, `messages.en`. */
const stringsObject = (node: ts.Node): boolean =>
  (ts.isIdentifier(node) && /(^|[a-z])Strings$|_STRINGS$/.test(node.text)) ||
  (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'messages' && node.name.text === 'en')

/**
 * English-looking literals of one source: `file:line: text`. Parsed with the
 * TypeScript compiler: JSX text, string attributes a visitor reads, and string
 * literals rendered from a JSX expression (`{ok ? 'Done' : 'Failed'}`) unless
 * they are a call's argument (`t('key')`) or a comparison operand.
 */
export function literals(source: string, file: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const lines = source.split('\n')
  const found: string[] = []
  const report = (node: ts.Node, text: string) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
    if (lines[line]?.includes('i18n-ignore') || lines[line - 1]?.includes('i18n-ignore')) return
    found.push(`${file}:${line + 1}: ${text.trim().replace(/\s+/g, ' ')}`)
  }
  const renderedFrom = (node: ts.Node): boolean => {
    for (let at: ts.Node = node; at.parent; at = at.parent) {
      const parent = at.parent
      if (ts.isCallExpression(parent) || ts.isNewExpression(parent) || ts.isElementAccessExpression(parent)) return false
      if (ts.isBinaryExpression(parent) && /=|</.test(ts.tokenToString(parent.operatorToken.kind) ?? '')) return false
      if (ts.isJsxAttribute(parent)) return textAttributes.has(parent.name.getText(sf))
      if (ts.isJsxExpression(parent)) return !ts.isJsxAttribute(parent.parent) || textAttributes.has(parent.parent.name.getText(sf))
      if (ts.isBlock(parent) || ts.isSourceFile(parent) || ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) return false
    }
    return false
  }
  const visit = (node: ts.Node) => {
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && stringsObject(node.expression)) {
      report(node, `direct read ${node.getText(sf)}`)
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'replace' &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      /\{\w+\}/.test(node.arguments[0].text)
    ) {
      report(node, `placeholder filled by hand ${node.getText(sf)}`)
    }
    if (ts.isJsxText(node) && wordy(node.text)) report(node, node.text)
    else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && wordy(node.text) && renderedFrom(node)) {
      const attribute = ts.isJsxAttribute(node.parent) ? `${node.parent.name.getText(sf)}=` : ''
      report(node, `${attribute}"${node.text}"`)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

describe('the React components', () => {
  it('show no English literal: every string comes from a catalogue', () => {
    const found = components(root).flatMap((path) => literals(readFileSync(path, 'utf8'), relative(root, path)))
    expect(found).toEqual([])
  })

  it('the scan finds text between tags and text attributes', () => {
    expect(literals('const a = <p>Hello there</p>', 'a.tsx')).toEqual(['a.tsx:1: Hello there'])
    expect(literals('const a = <input placeholder="Search wallet" className="x-y" />', 'a.tsx')).toEqual(['a.tsx:1: placeholder="Search wallet"'])
    expect(literals('const a = <p title={ok ? "Done" : "Failed"}>{ok ? "Yes" : t("x.no")}</p>', 'a.tsx')).toHaveLength(3)
    expect(literals('const a = <p className={ok ? "on" : "off"}>{t("x.y")}{k === "idle" && 1}</p>', 'a.tsx')).toEqual([])
    expect(literals('const a = <b>WalletConnect</b> // i18n-ignore: a brand', 'a.tsx')).toEqual([])
  })

  it('the scan finds a strings object read directly and a placeholder filled by hand', () => {
    expect(literals('const a = <p>{socialStrings.more}</p>', 'a.tsx')).toEqual(['a.tsx:1: direct read socialStrings.more'])
    expect(literals("const a = <p aria-label={swapStrings['swap.flip']} />", 'a.tsx')).toHaveLength(1)
    expect(literals("const n = siwxStrings.title.replace('{name}', name)", 'a.tsx')).toEqual([
      "a.tsx:1: placeholder filled by hand siwxStrings.title.replace('{name}', name)",
      'a.tsx:1: direct read siwxStrings.title',
    ])
    expect(literals('const s = useStrings(socialStrings); const a = <p>{s("social.more")}</p>', 'a.tsx')).toEqual([])
    expect(literals("const a = url.replace('{id}', id)", 'a.tsx')).toHaveLength(1)
  })
})
