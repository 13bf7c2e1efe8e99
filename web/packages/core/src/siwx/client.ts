// Client of latchd's sign-in routes (docs/siwx.md; AppKit's
// ReownAuthentication calls, api-shapes §1.7): the nonce, authenticate with
// the nonce token in `x-nonce-jwt`, the bearer's sessions and sign-out.
// Every answer is checked with zod; a refusal carries latchd's reason and field.
import { z } from 'zod/mini'
import { ApiResponseError, createApiTransport, type ApiClientOptions } from '../apiBase'
import type { SIWXSession } from '../siwx'

const nonceSchema = z.object({ nonce: z.string(), token: z.string() })
const tokenSchema = z.object({ token: z.string() })
const dataSchema = z.object({
  accountAddress: z.string(),
  chainId: z.string(),
  domain: z.string(),
  uri: z.string(),
  version: z.string(),
  nonce: z.string(),
  statement: z.optional(z.string()),
  issuedAt: z.optional(z.string()),
  expirationTime: z.optional(z.string()),
  notBefore: z.optional(z.string()),
  requestId: z.optional(z.string()),
  resources: z.optional(z.array(z.string())),
})
const sessionSchema = z.object({
  id: z.string(),
  data: dataSchema,
  message: z.string(),
  signature: z.string(),
  cacao: z.unknown(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.optional(z.string()),
  active: z.boolean(),
})
const sessionsSchema = z.object({ sessions: z.array(sessionSchema) })
const emptySchema = z.object({})
const errorSchema = z.object({ reasons: z.array(z.object({ field: z.optional(z.string()), description: z.string() })) })

/** A session as latchd lists it (GET /auth/v1/siwx/sessions). */
export type SiwxSessionRecord = z.infer<typeof sessionSchema>

/** A refusal of a sign-in route, with latchd's reason and the field at fault when it gave them. */
export class SiwxRequestError extends Error {
  override readonly name = 'SiwxRequestError'
  constructor(
    readonly status: number,
    /** latchd's reason description. */
    readonly reason: string | undefined,
    /** The field latchd named (`signature`, `domain`, `x-nonce-jwt`, …). */
    readonly field: string | undefined,
    route: string,
  ) {
    super(reason ?? `${route} answered with HTTP status ${status}`)
  }
}

/** What POST /auth/v1/authenticate sends besides the nonce token. */
export interface AuthenticateBody {
  readonly message: string
  readonly signature: string
  readonly data?: { readonly chainId: string; readonly accountAddress: string }
  readonly walletInfo?: unknown
}

/** The sign-in routes' client. */
export interface SiwxClient {
  /** A fresh nonce and the token that spends it. */
  nonce(): Promise<{ nonce: string; token: string }>
  /** Verifies a signed message with the nonce's token and stores a session; resolves with its bearer token. */
  authenticate(nonceToken: string, body: AuthenticateBody): Promise<string>
  /** The bearer account's sessions, newest first (ended ones included); a refused token rejects with status 401. */
  sessions(token: string): Promise<SiwxSessionRecord[]>
  /** Revokes the bearer's session. */
  signOut(token: string): Promise<void>
}

/** createSiwxClient makes a client of the sign-in routes of the latchd at options.apiUrl. */
export function createSiwxClient(options: ApiClientOptions): SiwxClient {
  const { url, fetch: doFetch } = createApiTransport(options)

  const request = async <S extends z.ZodMiniType>(route: string, schema: S, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<z.infer<S>> => {
    const method = route.split(' ')[0]!
    const path = route.split(' ')[1]!
    const response = await doFetch(url(path), {
      method,
      headers: { Accept: 'application/json', ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    })
    let body: unknown
    try {
      body = await response.json()
    } catch {
      if (!response.ok) throw new SiwxRequestError(response.status, undefined, undefined, route)
      throw new ApiResponseError(`${route} answered with a body that is not JSON`)
    }
    if (!response.ok) {
      const refusal = errorSchema.safeParse(body)
      const reason = refusal.success ? refusal.data.reasons[0] : undefined
      throw new SiwxRequestError(response.status, reason?.description, reason?.field, route)
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
      throw new ApiResponseError(`${route} answered with a malformed body: ${where}: ${issue?.message ?? 'invalid'}`)
    }
    return parsed.data
  }
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

  return {
    nonce: () => request('GET /auth/v1/nonce', nonceSchema),
    async authenticate(nonceToken, body) {
      const answer = await request('POST /auth/v1/authenticate', tokenSchema, { body, headers: { 'x-nonce-jwt': `Bearer ${nonceToken}` } })
      return answer.token
    },
    async sessions(token) {
      return (await request('GET /auth/v1/siwx/sessions', sessionsSchema, { headers: bearer(token) })).sessions
    },
    async signOut(token) {
      await request('POST /auth/v1/sign-out', emptySchema, { headers: bearer(token) })
    },
  }
}

/** sessionOf is the SIWXSession of a stored session. */
export function sessionOf(record: SiwxSessionRecord): SIWXSession {
  return { data: record.data, message: record.message, signature: record.signature, cacao: record.cacao }
}
