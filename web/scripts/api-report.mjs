#!/usr/bin/env node
// The public API report of each package: every name its entry exports, with its kind and its signature as the
// TypeScript compiler prints it. The reports are committed so that any change to the public surface shows up as a
// diff in review.
//
//   node scripts/api-report.mjs          rewrite packages/*/api-report.md
//   node scripts/api-report.mjs --check  exit 1 and print the diff when a committed report differs from the sources
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const webRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const packages = [
  { name: '@latchkit/core', dir: join(webRoot, 'packages/core') },
  { name: '@latchkit/react', dir: join(webRoot, 'packages/react') },
  { name: '@latchkit/appkit-compat', dir: join(webRoot, 'packages/appkit-compat') },
]

// Printing rules: whole types (no "... 12 more ..."), object literals over several lines, and names as the
// declaring file sees them.
const nodeFlags =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.UseAliasDefinedOutsideCurrentScope |
  ts.NodeBuilderFlags.IgnoreErrors
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })
const scratchFile = ts.createSourceFile('report.ts', '', ts.ScriptTarget.Latest)

function createProgram() {
  // appkit-compat's tsconfig maps @latchkit/core and @latchkit/react to their sources, so one program answers for
  // the three packages.
  const configPath = join(webRoot, 'packages/appkit-compat/tsconfig.json')
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath))
  const roots = packages.map((pkg) => join(pkg.dir, 'src/index.ts'))
  return ts.createProgram({ rootNames: roots, options: { ...parsed.options, noEmit: true } })
}

/** Absolute paths the printer falls back to (import("/…/node_modules/viem/…")) become machine-independent. */
function portable(text) {
  return text
    .replace(/import\("([^"]*)\/node_modules\/([^"]+)"\)/g, 'import("$2")')
    .replaceAll(`${webRoot}/`, '')
}

/**
 * The printer's text of a node, indented by two. A node the checker built may reuse nodes of the declaration's
 * file (its annotations), whose text the printer reads from that file: `at` names it.
 */
function print(node, at = node) {
  const file = at.pos >= 0 ? at.getSourceFile() : scratchFile
  const text = portable(printer.printNode(ts.EmitHint.Unspecified, node, file)).replace(/;$/, '')
  return text.replace(/^(?: {4})+/gm, (spaces) => ' '.repeat(spaces.length / 2))
}

function typeText(checker, type, at, extraFlags = 0) {
  const node = checker.typeToTypeNode(type, at, nodeFlags | extraFlags)
  return node ? print(node, at) : checker.typeToString(type, at)
}

/** A declaration's type as written when it has one (names kept: `MessageKey`, not its 200 keys), else as inferred. */
function declaredTypeText(checker, declaration, symbol) {
  if (declaration.type !== undefined) return print(declaration.type)
  return typeText(checker, checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration)
}

/** A call, construct or method signature without its name: "<T>(a: A): B". */
function signatureText(checker, signature, kind, at) {
  const declaration = checker.signatureToSignatureDeclaration(signature, kind, at, nodeFlags)
  const text = print(declaration, at)
  // The printer writes "function (…)", "new (…)" or "constructor(…)" in front of a nameless signature.
  return text.replace(/^(function |new |constructor)/, '')
}

function indent(text, by = '  ') {
  return text.replace(/\n/g, `\n${by}`)
}

function isOwnDeclaration(declaration) {
  const file = declaration.getSourceFile().fileName
  return file.startsWith(join(webRoot, 'packages')) && !file.includes('/node_modules/')
}

function propertyName(name) {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
}

function isHidden(declaration) {
  const flags = ts.getCombinedModifierFlags(declaration)
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return true
  return declaration.name !== undefined && ts.isPrivateIdentifier(declaration.name)
}

/** One line (or a few) per member of an interface, class or object type declared in this repository. */
function memberLines(checker, type, at) {
  const lines = []
  for (const signature of type.getCallSignatures()) {
    lines.push(signatureText(checker, signature, ts.SyntaxKind.CallSignature, at))
  }
  for (const signature of type.getConstructSignatures()) {
    lines.push(`new ${signatureText(checker, signature, ts.SyntaxKind.ConstructSignature, at)}`)
  }
  for (const info of checker.getIndexInfosOfType(type)) {
    const readonly = info.isReadonly ? 'readonly ' : ''
    lines.push(`${readonly}[key: ${typeText(checker, info.keyType, at)}]: ${typeText(checker, info.type, at)}`)
  }
  for (const property of type.getProperties()) {
    const declaration = property.declarations?.[0]
    if (!declaration || !isOwnDeclaration(declaration) || isHidden(declaration)) continue
    const name = propertyName(property.getName())
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : ''
    if (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration)) {
      const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration)
      for (const signature of propertyType.getCallSignatures()) {
        lines.push(`${name}${optional}${signatureText(checker, signature, ts.SyntaxKind.MethodSignature, at)}`)
      }
      continue
    }
    const readonly = ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? 'readonly ' : ''
    lines.push(`${readonly}${name}${optional}: ${declaredTypeText(checker, declaration, property)}`)
  }
  return lines
}

function block(head, lines) {
  if (lines.length === 0) return `${head} {}`
  return `${head} {\n${lines.map((line) => `  ${indent(line)}`).join('\n')}\n}`
}

function typeParameters(declaration) {
  const params = declaration.typeParameters
  return params?.length ? `<${params.map((p) => p.getText()).join(', ')}>` : ''
}

function heritage(declaration) {
  const clauses = declaration.heritageClauses ?? []
  return clauses.map((clause) => ` ${clause.getText().replace(/\s+/g, ' ')}`).join('')
}

/** The report entry of one exported symbol: a declaration-like text whose first word is its kind. */
function describe(checker, name, symbol) {
  const declaration = symbol.declarations?.[0]
  if (!declaration) return `unknown ${name}`
  const at = declaration
  const entries = []
  const flags = symbol.flags
  if (flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration)
    for (const signature of type.getCallSignatures()) {
      entries.push(`function ${name}${signatureText(checker, signature, ts.SyntaxKind.FunctionDeclaration, at)}`)
    }
  }
  if (flags & ts.SymbolFlags.Variable) {
    const isConst = ts.isVariableDeclaration(declaration) && declaration.parent.flags & ts.NodeFlags.Const
    entries.push(`${isConst ? 'const' : 'let'} ${name}: ${declaredTypeText(checker, declaration, symbol)}`)
  }
  if (flags & ts.SymbolFlags.Class) {
    const classDeclaration = symbol.declarations.find(ts.isClassDeclaration) ?? declaration
    const staticType = checker.getTypeOfSymbolAtLocation(symbol, classDeclaration)
    const lines = staticType
      .getConstructSignatures()
      .map((signature) => `constructor${signatureText(checker, signature, ts.SyntaxKind.Constructor, at)}`)
    const statics = memberLines(checker, staticType, at).filter((line) => !line.startsWith('new ('))
    lines.push(...statics.filter((line) => !line.startsWith('prototype:')).map((line) => `static ${line}`))
    lines.push(...memberLines(checker, checker.getDeclaredTypeOfSymbol(symbol), at))
    const abstract = ts.getCombinedModifierFlags(classDeclaration) & ts.ModifierFlags.Abstract ? 'abstract ' : ''
    entries.push(block(`${abstract}class ${name}${typeParameters(classDeclaration)}${heritage(classDeclaration)}`, lines))
  }
  if (flags & ts.SymbolFlags.Interface) {
    const interfaceDeclaration = symbol.declarations.find(ts.isInterfaceDeclaration)
    const lines = memberLines(checker, checker.getDeclaredTypeOfSymbol(symbol), at)
    entries.push(block(`interface ${name}${typeParameters(interfaceDeclaration)}${heritage(interfaceDeclaration)}`, lines))
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const aliasDeclaration = symbol.declarations.find(ts.isTypeAliasDeclaration)
    entries.push(`type ${name}${typeParameters(aliasDeclaration)} = ${print(aliasDeclaration.type)}`)
  }
  if (flags & ts.SymbolFlags.Enum) {
    const members = checker.getExportsOfModule(symbol).map((member) => {
      const value = checker.getConstantValue(member.declarations[0])
      return `${member.getName()} = ${JSON.stringify(value)},`
    })
    entries.push(block(`enum ${name}`, members))
  }
  if (flags & ts.SymbolFlags.Module) {
    // A namespace, or properties assigned to a function (`ConnectButton.Custom = …`).
    const members = checker.getExportsOfModule(symbol).map((member) => describe(checker, member.getName(), member))
    entries.push(block(`namespace ${name}`, members.sort()))
  }
  if (entries.length === 0 && flags & ts.SymbolFlags.Property) {
    entries.push(`const ${name}: ${declaredTypeText(checker, declaration, symbol)}`)
  }
  return entries.length > 0 ? entries.join('\n') : `unknown ${name}`
}

/** Whether the export is reachable only as a type (`export type { X }`, `export type * from`). */
function isTypeOnlyExport(checker, exported) {
  let symbol = exported
  for (let hops = 0; hops < 16 && symbol.flags & ts.SymbolFlags.Alias; hops++) {
    for (const declaration of symbol.declarations ?? []) {
      if (ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly)) {
        return true
      }
    }
    symbol = checker.getImmediateAliasedSymbol(symbol) ?? symbol
  }
  return false
}

function exportsOf(program, checker, pkg) {
  const entry = program.getSourceFile(join(pkg.dir, 'src/index.ts'))
  const moduleSymbol = checker.getSymbolAtLocation(entry)
  return checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.getName().localeCompare(b.getName(), 'en'))
}

function resolved(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
}

const typeDeclarationKinds = new Set([
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.EnumDeclaration,
])

/**
 * Types declared in a package's sources (those its entry reaches) that its entry does not export, by name. A
 * report that uses one of these names shows a type its readers cannot import (API Extractor's "forgotten export").
 */
function unexportedTypes(program, checker) {
  const exported = new Set()
  for (const pkg of packages) {
    for (const symbol of exportsOf(program, checker, pkg)) exported.add(resolved(checker, symbol))
  }
  const byName = new Map()
  for (const file of program.getSourceFiles()) {
    const pkg = packages.find((candidate) => file.fileName.startsWith(`${candidate.dir}/src/`))
    if (!pkg) continue
    for (const statement of file.statements) {
      if (!typeDeclarationKinds.has(statement.kind) || !statement.name) continue
      const symbol = checker.getSymbolAtLocation(statement.name)
      const name = statement.name.text
      if (!symbol || exported.has(symbol)) {
        byName.set(name, null) // A name some package exports is not reported, even if another file reuses it.
      } else if (!byName.has(name)) {
        byName.set(name, relative(pkg.dir, file.fileName))
      }
    }
  }
  return byName
}

function forgottenSection(entriesText, unexported) {
  const withoutStrings = entriesText.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '')
  const used = new Set(withoutStrings.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? [])
  const forgotten = [...used].filter((name) => unexported.get(name)).sort()
  if (forgotten.length === 0) return []
  return [
    '',
    '## Referenced, not exported',
    '',
    'Types the signatures above name that the packages declare without exporting them from their entry:',
    '',
    ...forgotten.map((name) => `- \`${name}\` (${unexported.get(name)})`),
  ]
}

function packageReport(program, checker, pkg, unexported) {
  const entry = program.getSourceFile(join(pkg.dir, 'src/index.ts'))
  const exports = exportsOf(program, checker, pkg)
  const entries = []
  const counts = { value: 0, type: 0 }
  for (const exported of exports) {
    const name = exported.getName()
    const symbol = resolved(checker, exported)
    const typeOnly = isTypeOnlyExport(checker, exported) || !(symbol.flags & ts.SymbolFlags.Value)
    counts[typeOnly ? 'type' : 'value']++
    const home = packages.find(
      (other) => other !== pkg && symbol.declarations?.[0]?.getSourceFile().fileName.startsWith(`${other.dir}/`),
    )
    if (home) {
      // Re-exported from a sibling package: its shape is in that package's report.
      const kind = describe(checker, name, symbol).split(' ')[0]
      entries.push(`${typeOnly ? 'export type' : 'export'} { ${name} } from '${home.name}' // ${kind}`)
      continue
    }
    const text = describe(checker, name, symbol)
    // A value exported with `export type` can only be named in types; say so.
    entries.push(typeOnly && symbol.flags & ts.SymbolFlags.Value ? `/* type-only */ ${text}` : text)
  }
  const source = relative(pkg.dir, entry.fileName)
  return [
    `# ${pkg.name}: public API`,
    '',
    `Every name \`${source}\` exports (${counts.value} values, ${counts.type} types), with its kind and its signature as`,
    'the TypeScript compiler prints it. Generated by `npm run api-report` in web/; `scripts/test.sh` fails when this',
    'file differs from the sources, so a change to the public surface is a visible change here.',
    '',
    '```ts',
    entries.join('\n\n'),
    '```',
    ...forgottenSection(entries.join('\n'), unexported),
    '',
  ].join('\n')
}

function showDiff(path, expected) {
  const dir = mkdtempSync(join(tmpdir(), 'api-report-'))
  try {
    const generated = join(dir, 'api-report.md')
    writeFileSync(generated, expected)
    const diff = spawnSync('diff', ['-u', '--label', `committed ${path}`, '--label', 'from sources', path, generated], {
      encoding: 'utf8',
    })
    process.stdout.write(diff.error ? `${path} differs from the sources\n` : diff.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function main() {
  const check = process.argv.includes('--check')
  const program = createProgram()
  const checker = program.getTypeChecker()
  const unexported = unexportedTypes(program, checker)
  let stale = 0
  for (const pkg of packages) {
    const path = join(pkg.dir, 'api-report.md')
    const report = packageReport(program, checker, pkg, unexported)
    let committed = null
    try {
      committed = readFileSync(path, 'utf8')
    } catch {
      // No report yet.
    }
    if (committed === report) continue
    if (check) {
      stale++
      if (committed === null) console.log(`${relative(webRoot, path)} is missing`)
      else showDiff(relative(process.cwd(), path), report)
    } else {
      writeFileSync(path, report)
      console.log(`wrote ${relative(webRoot, path)}`)
    }
  }
  if (stale > 0) {
    console.log(`\nThe public API changed: run \`npm run api-report\` in web/ and commit the reports if the change is meant.`)
    process.exit(1)
  }
}

main()
