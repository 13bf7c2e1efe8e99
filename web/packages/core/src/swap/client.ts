// Client of latchd's convert routes (api-shapes §3.4): the tokens of a
// network, quotes, allowances, gas prices and the approve and swap
// transactions latchd builds from on-chain router state. Every answer is
// checked with zod; a refusal carries latchd's reason, shown to the visitor
// as it is (spec §8).
import { z } from 'zod/mini'
import { ApiResponseError, type ApiClientOptions, type Query } from '../apiBase'
import { createJsonRequest, type JsonRequestInit } from '../jsonRequest'

const tokenSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  address: z.string(),
  decimals: z.number(),
  logoUri: z.nullish(z.string()),
})
const quoteSchema = z.object({
  quotes: z.array(
    z.object({
      fromAmount: z.string(),
      fromAccount: z.string(),
      toAmount: z.string(),
      toAccount: z.string(),
      path: z.optional(z.array(z.string())),
      priceImpact: z.optional(z.number()),
    }),
  ),
})
const txSchema = z.object({ from: z.string(), to: z.string(), data: z.string() })
const approveSchema = z.object({ tx: z.extend(txSchema, { value: z.string(), eip155: z.object({ gas: z.number(), gasPrice: z.string() }) }) })
const buildSchema = z.object({
  tx: z.extend(txSchema, { amount: z.string(), eip155: z.object({ gas: z.string(), gasPrice: z.string() }) }),
  quote: z.optional(z.object({ toAmount: z.string(), minimumOut: z.string() })),
})

/** A token the network swaps; `address` is CAIP-10 (the native coin as 0xeeee…eeee). */
export interface SwapToken {
  readonly name: string
  readonly symbol: string
  readonly address: string
  readonly decimals: number
  readonly logoUri?: string | null | undefined
}

/** The best quote: amounts in base units, the route and its price impact in percent. */
export interface SwapQuote {
  readonly fromAmount: bigint
  readonly toAmount: bigint
  readonly path: readonly string[]
  readonly priceImpact: number
}

/** A transaction latchd built for the visitor's wallet. */
export interface SwapTransaction {
  /** The contract called (plain address). */
  readonly to: string
  readonly data: string
  /** Wei sent along (the input, when it is the native coin). */
  readonly value: bigint
  readonly gas: bigint
  readonly gasPrice: bigint
}

/** A refusal of a convert route: latchd's reason when it gave one. */
export class SwapRequestError extends Error {
  override readonly name = 'SwapRequestError'
  constructor(
    readonly status: number,
    readonly reason: string | undefined,
    route: string,
  ) {
    super(reason ?? `${route} answered with HTTP status ${status}`)
  }
}

/** The convert-route client. */
export interface SwapClient {
  tokens(caipNetworkId: string): Promise<SwapToken[]>
  quote(params: { from: string; to: string; amount: bigint; userAddress: string }, init?: { signal?: AbortSignal }): Promise<SwapQuote>
  allowance(params: { tokenAddress: string; userAddress: string }): Promise<bigint>
  gasPrice(caipNetworkId: string): Promise<{ standard: bigint; fast: bigint; instant: bigint }>
  buildApprove(params: { userAddress: string; from: string; to: string }): Promise<SwapTransaction>
  buildSwap(params: { userAddress: string; from: string; to: string; amount: bigint; slippage: number }): Promise<SwapTransaction & { toAmount: bigint; minimumOut: bigint }>
}

/** The plain address of a CAIP-10 id (`eip155:1:0xabc` → `0xabc`). */
const plain = (caip10: string): string => caip10.slice(caip10.lastIndexOf(':') + 1)

/** createSwapClient makes a client of the convert routes of the latchd at options.apiUrl. */
export function createSwapClient(options: ApiClientOptions): SwapClient {
  const call = createJsonRequest(options, SwapRequestError)
  // The convert routes are called by their path.
  const request = <S extends z.ZodMiniType>(route: string, schema: S, query: Query, init?: JsonRequestInit) => call(route, route, schema, query, init)

  return {
    async tokens(caipNetworkId) {
      return (await request('/v1/convert/tokens', z.object({ tokens: z.array(tokenSchema) }), { chainId: caipNetworkId })).tokens
    },
    async quote(params, init) {
      const body = await request('/v1/convert/quotes', quoteSchema, { from: params.from, to: params.to, amount: params.amount.toString(), userAddress: params.userAddress }, { signal: init?.signal })
      const q = body.quotes[0]
      if (!q) throw new ApiResponseError('GET /v1/convert/quotes answered no quote')
      return { fromAmount: BigInt(q.fromAmount), toAmount: BigInt(q.toAmount), path: q.path ?? [q.fromAccount, q.toAccount], priceImpact: q.priceImpact ?? 0 }
    },
    async allowance(params) {
      return BigInt((await request('/v1/convert/allowance', z.object({ allowance: z.string() }), params)).allowance)
    },
    async gasPrice(caipNetworkId) {
      const p = await request('/v1/convert/gas-price', z.object({ standard: z.string(), fast: z.string(), instant: z.string() }), { chainId: caipNetworkId })
      return { standard: BigInt(p.standard), fast: BigInt(p.fast), instant: BigInt(p.instant) }
    },
    async buildApprove(params) {
      const { tx } = await request('/v1/convert/build-approve', approveSchema, params)
      return { to: plain(tx.to), data: tx.data, value: BigInt(tx.value), gas: BigInt(tx.eip155.gas), gasPrice: BigInt(tx.eip155.gasPrice) }
    },
    async buildSwap(params) {
      const { tx, quote } = await request('/v1/convert/build-transaction', buildSchema, {}, {
        body: JSON.stringify({ amount: params.amount.toString(), eip155: { slippage: params.slippage }, projectId: options.projectId, from: params.from, to: params.to, userAddress: params.userAddress }),
      })
      return {
        to: plain(tx.to),
        data: tx.data,
        value: BigInt(tx.amount),
        gas: BigInt(tx.eip155.gas),
        gasPrice: BigInt(tx.eip155.gasPrice),
        toAmount: BigInt(quote?.toAmount ?? '0'),
        minimumOut: BigInt(quote?.minimumOut ?? '0'),
      }
    },
  }
}
