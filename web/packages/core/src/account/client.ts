// Client of latchd's account-data routes: balances, history, identity and
// prices (api-shapes §3.1–3.3, §3.5). GETs carry projectId, st and sv like
// every other latchd call; every answer is validated with zod so a malformed
// body fails here, naming the route.
import { z } from 'zod/mini'
import { ApiResponseError, createApiTransport, HttpError, type Query } from '../apiBase'
import type { FungiblePrice, Identity, TokenBalance, Transaction, TransactionPage } from './types'

const decimalsSchema = z.union([z.string(), z.int()])

const balanceSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  chainId: z.string(),
  address: z.nullish(z.string()),
  value: z.nullish(z.number()),
  price: z.nullish(z.number()),
  quantity: z.object({ decimals: decimalsSchema, numeric: z.string() }),
  iconUrl: z.nullish(z.string()),
})
export const balancesSchema = z.object({ balances: z.array(balanceSchema) })

const transferSchema = z.object({
  fungible_info: z.nullish(
    z.object({
      name: z.nullish(z.string()),
      symbol: z.nullish(z.string()),
      icon: z.nullish(z.object({ url: z.string() })),
    }),
  ),
  nft_info: z.nullish(
    z.object({
      name: z.nullish(z.string()),
      content: z.nullish(z.object({ preview: z.nullish(z.object({ url: z.string() })) })),
      flags: z.object({ is_spam: z.boolean() }),
    }),
  ),
  direction: z.enum(['in', 'out', 'self']),
  quantity: z.object({ numeric: z.string() }),
  value: z.nullish(z.number()),
  price: z.nullish(z.number()),
  sender: z.nullish(z.string()),
  recipient: z.nullish(z.string()),
})
const transactionSchema = z.object({
  id: z.string(),
  metadata: z.object({
    operationType: z.string(),
    hash: z.string(),
    chain: z.string(),
    minedAt: z.string(),
    sentFrom: z.string(),
    sentTo: z.string(),
    status: z.enum(['confirmed', 'failed', 'pending']),
    nonce: z.number(),
  }),
  transfers: z.nullable(z.array(transferSchema)),
})
export const historySchema = z.object({ data: z.array(transactionSchema), next: z.nullish(z.string()) })
export const identitySchema = z.object({ name: z.nullish(z.string()), avatar: z.nullish(z.string()) })
export const pricesSchema = z.object({
  fungibles: z.array(
    z.object({
      address: z.string(),
      name: z.string(),
      symbol: z.string(),
      iconUrl: z.nullish(z.string()),
      price: z.number(),
      decimals: z.nullish(z.number()),
    }),
  ),
})

/** Message of spec §5 for a history fetch without an account. */
export const HISTORY_NEEDS_ADDRESS = "Transactions can't be fetched without an accountAddress"

/** Options of createAccountClient. */
export interface AccountClientOptions {
  /** latchd base URL, without a trailing slash. */
  readonly apiUrl: string
  readonly projectId: string | undefined
  readonly sdkVersion: string
  readonly fetch?: typeof globalThis.fetch
}

/** Query of the balance route. */
export interface GetBalancesParams {
  /** Plain address (no CAIP prefix). */
  readonly address: string
  /** CAIP-2 network id of the active network. */
  readonly caipNetworkId: string
  /** Fiat currency of value and price (spec §9: usd). */
  readonly currency?: string
  /** CAIP-10 token addresses whose cached balance latchd must re-read (after the visitor's own transfer). */
  readonly forceUpdate?: readonly string[]
}

/** Query of the history route. */
export interface GetHistoryParams {
  readonly address: string
  readonly caipNetworkId: string
  /** The `next` of the previous page. */
  readonly cursor?: string | undefined
}

/** The account-data client. */
export interface AccountClient {
  /** Balances of an account on one network; tokens with decimals "0" are dropped (spec §5). */
  getBalances(params: GetBalancesParams, init?: { signal?: AbortSignal }): Promise<TokenBalance[]>
  /** One page of history; throws HISTORY_NEEDS_ADDRESS without an address. */
  getHistory(params: GetHistoryParams, init?: { signal?: AbortSignal }): Promise<TransactionPage>
  /** Name and avatar of an address (ENS on networks that have it). */
  getIdentity(params: { address: string; sender?: string | undefined }, init?: { signal?: AbortSignal }): Promise<Identity>
  /** Prices of CAIP-10 token addresses. */
  getTokenPrices(params: { addresses: readonly string[]; currency?: string }): Promise<FungiblePrice[]>
}

/** createAccountClient makes a client of the latchd at options.apiUrl. */
export function createAccountClient(options: AccountClientOptions): AccountClient {
  // The same URLs (common query included) and fetch as the page's first-load client.
  const { url, fetch: doFetch } = createApiTransport(options)

  const request = async <S extends z.ZodMiniType>(
    method: 'GET' | 'POST',
    path: string,
    route: string,
    schema: S,
    query: Query,
    init: { body?: string; signal?: AbortSignal | undefined } = {},
  ): Promise<z.infer<S>> => {
    const response = await doFetch(url(path, query), {
      method,
      headers: method === 'GET' ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'text/plain;charset=UTF-8' },
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    })
    if (!response.ok) throw new HttpError(response.status, route)
    let body: unknown
    try {
      body = await response.json()
    } catch {
      throw new ApiResponseError(`${method} ${route} answered with a body that is not JSON`)
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
      throw new ApiResponseError(`${method} ${route} answered with a malformed body: ${where}: ${issue?.message ?? 'invalid'}`)
    }
    return parsed.data
  }

  const accountPath = (address: string, rest: string) => `/v1/account/${encodeURIComponent(address)}/${rest}`

  return {
    async getBalances(params, init) {
      const body = await request('GET', accountPath(params.address, 'balance'), '/v1/account/{address}/balance', balancesSchema, {
        currency: params.currency ?? 'usd',
        chainId: params.caipNetworkId,
        forceUpdate: params.forceUpdate && params.forceUpdate.length > 0 ? params.forceUpdate.join(',') : undefined,
      }, { signal: init?.signal })
      return body.balances
        .map((b): TokenBalance => ({
          name: b.name,
          symbol: b.symbol,
          chainId: b.chainId,
          ...(b.address ? { address: b.address } : {}),
          ...(typeof b.value === 'number' ? { value: b.value } : {}),
          price: b.price ?? 0,
          quantity: { decimals: String(b.quantity.decimals), numeric: b.quantity.numeric },
          iconUrl: b.iconUrl ?? '',
        }))
        .filter((b) => b.quantity.decimals !== '0')
    },

    async getHistory(params, init) {
      if (!params.address) throw new Error(HISTORY_NEEDS_ADDRESS)
      const body = await request('GET', accountPath(params.address, 'history'), '/v1/account/{address}/history', historySchema, {
        chainId: params.caipNetworkId,
        cursor: params.cursor,
      }, { signal: init?.signal })
      return { data: body.data as Transaction[], next: body.next ?? null }
    },

    async getIdentity(params, init) {
      const body = await request('GET', `/v1/identity/${encodeURIComponent(params.address)}`, '/v1/identity/{address}', identitySchema, {
        sender: params.sender,
      }, { signal: init?.signal })
      return { name: body.name ?? null, avatar: body.avatar ?? null }
    },

    async getTokenPrices(params) {
      const currency = params.currency ?? 'usd'
      const body = await request('POST', '/v1/fungible/price', '/v1/fungible/price', pricesSchema, {}, {
        body: JSON.stringify({ currency, addresses: params.addresses, projectId: options.projectId }),
      })
      return body.fungibles.map((f) => ({ ...f, iconUrl: f.iconUrl ?? '', ...(typeof f.decimals === 'number' ? { decimals: f.decimals } : { decimals: undefined }) }))
    },
  }
}
