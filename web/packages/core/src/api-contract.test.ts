// The zod schemas the widget parses latchd's answers with, checked against
// latchd's API contract (api/openapi.yaml, which latchd's own tests check its
// handlers against): for each route the client reads, every property the
// client reads is one the document has, everything the client requires the
// document requires, and every type and enum value the document allows the
// client accepts. So a renamed, dropped or retyped field fails here, on
// whichever side it changed.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { z } from 'zod/mini'
import { balancesSchema, historySchema, identitySchema, pricesSchema } from './account/client'
import { analyticsSchema, originsSchema, projectConfigSchema, walletsResponseSchema } from './api'

type Schema = { [key: string]: unknown }

const documentPath = fileURLToPath(new URL('../../../../api/openapi.yaml', import.meta.url))
const openapi = parse(readFileSync(documentPath, 'utf8')) as Schema

/** The JSON schema at a JSON pointer of the document ("#/a/b"). */
function at(pointer: string): Schema {
  let v: unknown = openapi
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (typeof v !== 'object' || v === null || !(key in v)) throw new Error(`api/openapi.yaml has no ${pointer}`)
    v = (v as Schema)[key]
  }
  return v as Schema
}

/** The 200 JSON body schema of an operation ("GET /getWallets"). */
function responseSchema(operation: string): Schema {
  const [method = '', path = ''] = operation.split(' ')
  const escaped = path.replaceAll('~', '~0').replaceAll('/', '~1')
  return at(`#/paths/${escaped}/${method.toLowerCase()}/responses/200/content/application~1json/schema`)
}

/** s with a $ref (to the document's components, or to zod's $defs) followed. */
function deref(s: Schema, defs: Schema): Schema {
  const ref = s.$ref
  if (typeof ref !== 'string') return s
  if (ref.startsWith('#/components/')) return deref(at(ref), defs)
  const name = ref.replace(/^#\/\$defs\//, '')
  const target = defs[name]
  if (!target) throw new Error(`unresolved $ref ${ref}`)
  return deref(target as Schema, defs)
}

/** The alternatives of a schema: the members of anyOf/oneOf, else itself. */
function alternatives(s: Schema, defs: Schema): Schema[] {
  s = deref(s, defs)
  const members = (s.anyOf ?? s.oneOf) as Schema[] | undefined
  return members ? members.flatMap((m) => alternatives(m, defs)) : [s]
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array'

/** The JSON types a schema admits; undefined: any. */
function typesOf(s: Schema, defs: Schema): Set<JsonType> | undefined {
  const out = new Set<JsonType>()
  for (const alt of alternatives(s, defs)) {
    const values = 'const' in alt ? [alt.const] : Array.isArray(alt.enum) ? alt.enum : undefined
    if (alt.type === undefined && values === undefined) return undefined
    const types = alt.type === undefined ? [] : Array.isArray(alt.type) ? alt.type : [alt.type]
    for (const t of types) out.add(t as JsonType)
    for (const v of types.length === 0 ? values ?? [] : []) {
      out.add(v === null ? 'null' : Number.isInteger(v) ? 'integer' : (typeof v as JsonType))
    }
  }
  return out
}

/** The enum (or const) values a schema's alternatives allow; undefined: not an enumeration. */
function valuesOf(s: Schema, defs: Schema): unknown[] | undefined {
  const out: unknown[] = []
  for (const alt of alternatives(s, defs)) {
    if ('const' in alt) out.push(alt.const)
    else if (Array.isArray(alt.enum)) out.push(...alt.enum)
    else if (alt.type !== 'null') return undefined
  }
  return out
}

/** The object alternative of a schema, if it has one. */
function objectOf(s: Schema, defs: Schema): Schema | undefined {
  return alternatives(s, defs).find((a) => a.type === 'object' || (Array.isArray(a.type) && a.type.includes('object')) || a.properties !== undefined)
}

/** The array alternative's items, if the schema admits an array. */
function itemsOf(s: Schema, defs: Schema): Schema | undefined {
  const arr = alternatives(s, defs).find((a) => a.type === 'array' || (Array.isArray(a.type) && a.type.includes('array')))
  return arr?.items as Schema | undefined
}

/**
 * compare lists where a client schema (zod's JSON Schema) and the
 * document's schema of the same value disagree: a type or enum value the
 * document allows that the client refuses, a property the client reads that
 * the document lacks, a property the client requires that the document does
 * not. Properties only the document has are not a disagreement (the client
 * ignores them).
 */
function compare(client: Schema, doc: Schema, clientDefs: Schema, where = 'body'): string[] {
  const problems: string[] = []
  const ct = typesOf(client, clientDefs)
  const dt = typesOf(doc, {})
  if (ct && !dt) problems.push(`${where}: the document allows any type, the client only ${[...ct].join('|')}`)
  if (ct && dt) {
    for (const t of dt) {
      if (!ct.has(t) && !(t === 'integer' && ct.has('number'))) {
        problems.push(`${where}: the document allows ${t}, the client only ${[...ct].join('|')}`)
      }
    }
  }
  const cv = valuesOf(client, clientDefs)
  const dv = valuesOf(doc, {})
  if (cv) {
    for (const v of dv ?? ['(any value)']) {
      if (!cv.includes(v)) problems.push(`${where}: the document allows ${JSON.stringify(v)}, the client only ${JSON.stringify(cv)}`)
    }
  }
  const co = objectOf(client, clientDefs)
  const dobj = objectOf(doc, {})
  if (co && dobj) {
    const dprops = (dobj.properties ?? {}) as Schema
    const drequired = new Set((dobj.required ?? []) as string[])
    for (const name of (co.required ?? []) as string[]) {
      if (!drequired.has(name)) problems.push(`${where}.${name}: the client requires it, the document does not`)
    }
    for (const [name, cs] of Object.entries((co.properties ?? {}) as Schema)) {
      const ds = dprops[name]
      if (ds === undefined) {
        problems.push(`${where}.${name}: the client reads it, the document has no such property`)
        continue
      }
      problems.push(...compare(cs as Schema, ds as Schema, clientDefs, `${where}.${name}`))
    }
  }
  const ci = itemsOf(client, clientDefs)
  const di = itemsOf(doc, {})
  if (ci && di) problems.push(...compare(ci, di, clientDefs, `${where}[]`))
  return problems
}

/** compare for a zod schema. */
function compareZod(schema: z.ZodMiniType, doc: Schema): string[] {
  const client = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Schema
  return compare(client, doc, (client.$defs ?? {}) as Schema)
}

// Each latchd answer the widget parses, by the route it comes from.
const clientSchemas: [string, z.ZodMiniType][] = [
  ['GET /getWallets', walletsResponseSchema],
  ['GET /appkit/v1/config', projectConfigSchema],
  ['GET /projects/v1/origins', originsSchema],
  ['GET /getAnalyticsConfig', analyticsSchema],
  ['GET /v1/account/{address}/balance', balancesSchema],
  ['GET /v1/account/{address}/history', historySchema],
  ['GET /v1/identity/{address}', identitySchema],
  ['GET /v1/account/{address}/identity', identitySchema],
  ['POST /v1/fungible/price', pricesSchema],
]

// Optional properties of AppKit's shapes that the client reads and latchd
// never sends, by route: listed so that any other property the client reads
// must be in the document. An entry the document comes to have fails too.
const clientOnly: Record<string, string[]> = {
  // NFT previews: latchd's indexer records no NFT media.
  'GET /v1/account/{address}/history': ['body.data[].transfers[].nft_info.content'],
}
const notInDocument = ': the client reads it, the document has no such property'

describe('the widget’s API client and api/openapi.yaml', () => {
  it.each(clientSchemas)('%s: the client’s schema agrees with the document', (operation, schema) => {
    const allowed = clientOnly[operation] ?? []
    const problems = compareZod(schema, responseSchema(operation))
    expect(problems.filter((p) => !allowed.some((path) => p === path + notInDocument))).toEqual([])
    for (const path of allowed) expect(problems, `${path} is listed as client-only`).toContain(path + notInDocument)
  })

  it('every client schema names properties of its route (so the comparison is not vacuous)', () => {
    for (const [operation, schema] of clientSchemas) {
      const client = z.toJSONSchema(schema, { io: 'output' }) as Schema
      expect(Object.keys((client.properties ?? {}) as Schema).length, operation).toBeGreaterThan(0)
    }
  })

  it('reports a client that drifted from the document', () => {
    const doc = responseSchema('GET /v1/account/{address}/balance')
    const renamed = z.object({ balances: z.array(z.object({ name: z.string(), icon_url: z.string() })) })
    expect(compareZod(renamed, doc)).toEqual([
      'body.balances[].icon_url: the client requires it, the document does not',
      'body.balances[].icon_url: the client reads it, the document has no such property',
    ])
    const retyped = z.object({ balances: z.array(z.object({ price: z.string() })) })
    expect(compareZod(retyped, doc)).toEqual(['body.balances[].price: the document allows number, the client only string'])
    const narrowed = z.object({ data: z.array(z.object({ metadata: z.object({ status: z.enum(['confirmed']) }) })) })
    expect(compareZod(narrowed, responseSchema('GET /v1/account/{address}/history'))).toEqual([
      'body.data[].metadata.status: the document allows "failed", the client only ["confirmed"]',
    ])
  })

  it('reports a document that drifted from the client', () => {
    const client = z.object({ allowedOrigins: z.array(z.string()), count: z.optional(z.int()) })
    const doc: Schema = {
      type: 'object',
      required: ['origins'],
      properties: { origins: { type: 'array', items: { type: 'string' } }, count: { type: ['integer', 'null'] } },
    }
    expect(compareZod(client, doc)).toEqual([
      'body.allowedOrigins: the client requires it, the document does not',
      'body.allowedOrigins: the client reads it, the document has no such property',
      'body.count: the document allows null, the client only integer',
    ])
  })
})
