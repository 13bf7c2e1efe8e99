// One JSON request to latchd, for the on-demand clients of its routes (names,
// swap, on-ramp): GET, or POST with a JSON body sent as text/plain (no CORS
// preflight); the answer checked with zod; a refusal carries latchd's reason,
// which the spec (§8) shows to the visitor as it is.
import { z } from 'zod/mini'
import { ApiResponseError, createApiTransport, type ApiClientOptions, type Query } from './apiBase'

const errorSchema = z.object({ reasons: z.array(z.object({ description: z.string() })) })

/** The error class of a client's refusals: HTTP status, latchd's reason (when it gave one), the route. */
export type RefusalError = new (status: number, reason: string | undefined, route: string) => Error

/** A request's body (JSON text; none: GET) and abort signal. */
export interface JsonRequestInit {
  readonly body?: string
  readonly signal?: AbortSignal | undefined
}

/**
 * createJsonRequest makes the request function of a client of the latchd at
 * options.apiUrl: `route` names the call in errors, `path` is where it goes.
 */
export function createJsonRequest(options: ApiClientOptions, Refusal: RefusalError) {
  const { url, fetch: doFetch } = createApiTransport(options)
  return async <S extends z.ZodMiniType>(route: string, path: string, schema: S, query: Query, init: JsonRequestInit = {}): Promise<z.infer<S>> => {
    const method = init.body === undefined ? 'GET' : 'POST'
    const response = await doFetch(url(path, query), {
      method,
      headers: method === 'GET' ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'text/plain;charset=UTF-8' },
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    })
    let body: unknown
    try {
      body = await response.json()
    } catch {
      if (!response.ok) throw new Refusal(response.status, undefined, `${method} ${route}`)
      throw new ApiResponseError(`${method} ${route} answered with a body that is not JSON`)
    }
    if (!response.ok) {
      const refusal = errorSchema.safeParse(body)
      throw new Refusal(response.status, refusal.success ? refusal.data.reasons[0]?.description : undefined, `${method} ${route}`)
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
      throw new ApiResponseError(`${method} ${route} answered with a malformed body: ${where}: ${issue?.message ?? 'invalid'}`)
    }
    return parsed.data
  }
}
