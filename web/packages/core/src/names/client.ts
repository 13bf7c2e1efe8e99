// Client of latchd's profile routes (api-shapes §3.6): a name's record, an
// address's names, suggestions and the signed registration. Every answer is
// checked with zod; a refusal carries latchd's reason, which the spec (§8)
// shows to the visitor as it is.
import { z } from 'zod/mini'
import type { ApiClientOptions } from '../apiBase'
import { createJsonRequest } from '../jsonRequest'

const recordSchema = z.object({
  name: z.string(),
  registered_at: z.string(),
  updated_at: z.nullish(z.string()),
  attributes: z.nullish(z.record(z.string(), z.string())),
  addresses: z.record(z.string(), z.object({ address: z.string(), created_at: z.nullish(z.string()) })),
})
const suggestionsSchema = z.object({ suggestions: z.array(z.object({ name: z.string(), registered: z.boolean() })) })

/** A registered name (NameRecord of api/openapi.yaml). */
export type NameRecord = z.infer<typeof recordSchema>

/** One suggestion: a full name and whether it is taken. */
export interface NameSuggestion {
  readonly name: string
  readonly registered: boolean
}

/** What registerName sends: the signed message and its signer (api-shapes §3.6). */
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
  /** The wanted name first, whether it is taken, then free names like it when it is. */
  suggestions(name: string, init?: { signal?: AbortSignal }): Promise<NameSuggestion[]>
  /** Registers a name with a signed message; resolves with its record. */
  register(registration: NameRegistration): Promise<NameRecord>
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
    async register(registration) {
      return request('/v1/profile/account', '/v1/profile/account', recordSchema, {}, {
        body: JSON.stringify({
          coin_type: registration.coinType,
          address: registration.address,
          message: registration.message,
          signature: registration.signature,
        }),
      })
    },
  }
}
