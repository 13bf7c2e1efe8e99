// Client of latchd's /auth/v1 routes (docs/auth-api.md) and of its RPC proxy.
// Only the frame calls them: the page never sees a token. Every answer is
// validated; an error answer becomes an AuthApiError with latchd's message.
import { z } from 'zod/mini'

const sessionSchema = z.object({
  sessionId: z.string(),
  accessToken: z.string(),
  accessTokenExpiresAt: z.string(),
  refreshToken: z.string(),
  refreshTokenExpiresAt: z.string(),
  user: z.object({ id: z.string(), email: z.string() }),
})
/** A session as latchd issues it. */
export type Session = z.infer<typeof sessionSchema>

const errorSchema = z.object({
  code: z.optional(z.string()),
  reasons: z.optional(z.array(z.object({ field: z.optional(z.string()), description: z.string() }))),
})

const recoverySchema = z.union([
  z.object({ mode: z.literal('operator'), share: z.string() }),
  z.object({ mode: z.literal('password'), ciphertext: z.string(), kdf: z.record(z.string(), z.unknown()) }),
])
/** The recovery share as latchd stores it. */
export type StoredRecovery = z.infer<typeof recoverySchema>

const sharesSchema = z.object({ authShare: z.string(), recovery: z.optional(recoverySchema) })

/** A failed call: status and code as latchd answered, message for the visitor. */
export class AuthApiError extends Error {
  override name = 'AuthApiError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** Where the frame's calls go. */
export interface ApiTarget {
  /** latchd's API base URL, without a trailing slash. */
  readonly apiUrl: string
  readonly projectId: string
  readonly fetch?: typeof globalThis.fetch
}

/** createAuthApi makes the client. */
export function createAuthApi(target: ApiTarget) {
  const doFetch = target.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a))
  const url = (path: string, query: Record<string, string> = {}) =>
    `${target.apiUrl}${path}?${new URLSearchParams({ projectId: target.projectId, ...query })}`

  async function call<S extends z.ZodMiniType>(method: string, path: string, schema: S, body?: unknown, token?: string): Promise<z.infer<S>> {
    const headers: Record<string, string> = {}
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (token) headers.Authorization = `Bearer ${token}`
    const res = await doFetch(url(path), { method, headers, body: body === undefined ? null : JSON.stringify(body), credentials: 'omit' })
    const json: unknown = await res.json().catch(() => undefined)
    if (!res.ok) {
      const e = errorSchema.safeParse(json)
      const message = (e.success && e.data.reasons?.[0]?.description) || `HTTP status code: ${res.status}`
      throw new AuthApiError(message, res.status, e.success ? e.data.code : undefined)
    }
    const r = schema.safeParse(json)
    if (!r.success) throw new AuthApiError(`Unexpected answer from ${path}`, res.status, 'invalid_response')
    return r.data
  }

  return {
    origins: () => call('GET', '/auth/v1/origins', z.object({ allowedOrigins: z.array(z.string()), localOrigins: z.boolean() })),
    /** emailStart starts an e-mail login; locale (the page's) is the mail's language. */
    emailStart: (email: string, deviceId: string, token?: string, locale?: string) =>
      call(
        'POST',
        '/auth/v1/email/start',
        z.object({ action: z.enum(['CONNECT', 'VERIFY_OTP', 'VERIFY_DEVICE']), requestId: z.optional(z.string()) }),
        { email, deviceId, ...(locale ? { locale } : {}) },
        token,
      ),
    deviceStatus: (requestId: string, deviceId: string) =>
      call('POST', '/auth/v1/device/status', z.object({ status: z.enum(['pending', 'approved', 'expired']) }), { requestId, deviceId }),
    verify: (email: string, deviceId: string, otp: string) => call('POST', '/auth/v1/email/verify', sessionSchema, { email, deviceId, otp }),
    refresh: (refreshToken: string, deviceId: string) => call('POST', '/auth/v1/session/refresh', sessionSchema, { refreshToken, deviceId }),
    me: (token: string) =>
      call('GET', '/auth/v1/email/me', z.object({ user: z.object({ id: z.string(), email: z.string() }), sessionId: z.string() }), undefined, token),
    revoke: (token: string, sessionId: string) =>
      call('POST', `/auth/v1/sessions/${encodeURIComponent(sessionId)}/revoke`, z.object({ revoked: z.boolean() }), {}, token),
    putShares: (token: string, body: { deviceId: string; authShare: string; recovery: StoredRecovery; replace?: boolean }) =>
      call('PUT', '/auth/v1/shares', z.object({ stored: z.boolean() }), body, token),
    fetchShares: (token: string, deviceId: string, includeRecovery: boolean) =>
      call('POST', '/auth/v1/shares/fetch', sharesSchema, { deviceId, includeRecovery }, token),
    changeEmail: (token: string, newEmail: string, locale?: string) =>
      call('POST', '/auth/v1/email/change', z.object({ action: z.literal('VERIFY_PRIMARY_OTP') }), { newEmail, ...(locale ? { locale } : {}) }, token),
    changeEmailPrimary: (token: string, otp: string, locale?: string) =>
      call('POST', '/auth/v1/email/change/primary', z.object({ action: z.literal('VERIFY_SECONDARY_OTP') }), { otp, ...(locale ? { locale } : {}) }, token),
    changeEmailSecondary: (token: string, otp: string, deviceId: string) =>
      call('POST', '/auth/v1/email/change/secondary', z.object({ newEmail: z.string(), session: sessionSchema }), { otp, deviceId }, token),
    /** socialStart records a social login and returns the provider's URL for the popup (docs/social.md). */
    socialStart: (body: { provider: string; deviceId: string; codeChallenge: string; parentOrigin: string; returnUrl?: string }) =>
      call('POST', '/auth/v1/social/start', z.object({ uri: z.string() }), body),
    /** socialConnect exchanges the callback's result URI (with the PKCE verifier) for a session. */
    socialConnect: (body: { uri: string; codeVerifier: string; deviceId: string }) =>
      call('POST', '/auth/v1/social/connect', z.object({ session: sessionSchema, provider: z.string(), username: z.string() }), body),
    /** farcasterChannel opens a Sign In With Farcaster channel: its token and the farcaster:// URI for the QR code. */
    farcasterChannel: (body: { deviceId: string; codeChallenge: string; parentOrigin: string }) =>
      call('POST', '/auth/v1/farcaster/channel', z.object({ channelToken: z.string(), url: z.string(), nonce: z.string(), expiresAt: z.string() }), body),
    /** farcasterStatus says whether the Farcaster client completed the channel. */
    farcasterStatus: (body: { channelToken: string; deviceId: string }) =>
      call('POST', '/auth/v1/farcaster/channel/status', z.object({ state: z.enum(['pending', 'completed']) }), body),
    /** farcasterConnect spends a completed channel (with the PKCE verifier) for a session. */
    farcasterConnect: (body: { channelToken: string; codeVerifier: string; deviceId: string }) =>
      call('POST', '/auth/v1/farcaster/connect', z.object({ session: sessionSchema, provider: z.string(), username: z.string() }), body),
    /** registerName posts a signed name registration with the session (POST /v1/profile/account); the answer is latchd's record. */
    registerName: (token: string, r: { coinType: number; address: string; message: string; signature: string }) =>
      call('POST', '/v1/profile/account', z.looseObject({ name: z.string() }), { coin_type: r.coinType, address: r.address, message: r.message, signature: r.signature }, token),
    /** rpc sends one JSON-RPC call through latchd's RPC proxy (POST /v1?chainId=<caip2>). */
    async rpc(caip2: string, method: string, params: unknown): Promise<unknown> {
      const res = await doFetch(url('/v1', { chainId: caip2 }), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
        credentials: 'omit',
      })
      const json = (await res.json().catch(() => undefined)) as { result?: unknown; error?: { code?: number; message?: string } } | undefined
      if (json?.error) throw new RpcError(json.error.message ?? 'RPC request failed', json.error.code)
      if (!res.ok || !json || !('result' in json)) throw new RpcError(`HTTP status code: ${res.status}`)
      return json.result
    },
  }
}

/** The client createAuthApi makes. */
export type AuthApi = ReturnType<typeof createAuthApi>

/** An error the RPC proxy (or the node behind it) answered. */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message)
  }
}
