// Client of latchd's profile routes (api-shapes §3.6): a name's record, an
// address's names, suggestions and the signed registration. Every answer is
// checked with zod; a refusal carries latchd's reason, which the spec (§8)
// shows to the visitor as it is.
import { z } from 'zod/mini'
import { ApiResponseError, type ApiClientOptions } from '../apiBase'
import { createJsonRequest } from '../jsonRequest'

const recordSchema = z.object({
  name: z.string(),
  registered_at: z.string(),
  updated_at: z.nullish(z.string()),
  attributes: z.nullish(z.record(z.string(), z.string())),
  addresses: z.record(z.string(), z.object({ address: z.string(), created_at: z.nullish(z.string()) })),
})
const suggestionsSchema = z.object({
  suggestions: z.array(z.object({ name: z.string(), registered: z.boolean(), reason: z.optional(z.string()) })),
})

/** A registered name (NameRecord of api/openapi.yaml). */
export type NameRecord = z.infer<typeof recordSchema>

/** parseNameRecord checks latchd's answer to a registration (which the frame relays) and returns it as a NameRecord. */
export function parseNameRecord(value: unknown): NameRecord {
  const r = recordSchema.safeParse(value)
  if (r.success) return r.data
  const issue = r.error.issues[0]
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
  throw new ApiResponseError(`POST /v1/profile/account answered with a malformed body: ${where}: ${issue?.message ?? 'invalid'}`)
}

/** One suggestion: a full name and whether it can be registered. */
export interface NameSuggestion {
  readonly name: string
  /** True when the name cannot be registered: taken, or (with reason) reserved or a look-alike of another name. */
  readonly registered: boolean
  /** latchd's reason a name nobody holds cannot be registered (it names the reserved or registered name it looks like). */
  readonly reason?: string
}

/**
 * What a registration carries: the signed message and its signer (api-shapes §3.6). The embedded wallet's frame posts it
 * with the wallet's session, which latchd requires (spec §5); a page alone cannot register a name.
 */
export interface NameRegistration {
  /** ENSIP-11 coin type of the chain the message was signed on. */
  readonly coinType: number
  readonly address: string
  /** The JSON text `{name, attributes, timestamp}`. */
  readonly message: string
  readonly signature: string
}

/** A refusal of a profile route: latchd's reason when it gave one. */
export class NamesRequestError extends Error {
  override readonly name = 'NamesRequestError'
  constructor(
    readonly status: number,
    /** latchd's reason description, shown to the visitor as it is (spec §8). */
    readonly reason: string | undefined,
    route: string,
  ) {
    super(reason ?? `${route} answered with HTTP status ${status}`)
  }
}

/** The profile-route client. */
export interface NamesClient {
  /** The record of a name, or null when it is not registered. */
  lookup(name: string, init?: { signal?: AbortSignal }): Promise<NameRecord | null>
  /** The names of an address in latchd's zone (at most one). */
  reverse(address: string, init?: { signal?: AbortSignal }): Promise<NameRecord[]>
  /** The wanted name first, whether it can be registered, then free names like it when it cannot. */
  suggestions(name: string, init?: { signal?: AbortSignal }): Promise<NameSuggestion[]>
}

/** createNamesClient makes a client of the profile routes of the latchd at options.apiUrl. */
export function createNamesClient(options: ApiClientOptions): NamesClient {
  const request = createJsonRequest(options, NamesRequestError)

  return {
    async lookup(name, init) {
      // apiVersion=2: an unregistered name is [] rather than a 404 (api-shapes §3.6).
      const body = await request('/v1/profile/account/{name}', `/v1/profile/account/${encodeURIComponent(name)}`,
        z.union([recordSchema, z.array(recordSchema)]), { apiVersion: 2 }, { signal: init?.signal })
      return Array.isArray(body) ? (body[0] ?? null) : body
    },
    async reverse(address, init) {
      return request('/v1/profile/reverse/{address}', `/v1/profile/reverse/${encodeURIComponent(address)}`, z.array(recordSchema), {
        apiVersion: 2,
      }, { signal: init?.signal })
    },
    async suggestions(name, init) {
      const body = await request('/v1/profile/suggestions/{name}', `/v1/profile/suggestions/${encodeURIComponent(name)}`, suggestionsSchema, {}, {
        signal: init?.signal,
      })
      return body.suggestions
    },
  }
}
