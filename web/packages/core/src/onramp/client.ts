// Client of latchd's on-ramp routes (api-shapes §3.7, docs/onramp.md):
// options, quotes, the checkout URL generator and an order's status. Every
// answer is checked with zod; a refusal carries latchd's reason, which the
// view shows as it is.
import { z } from 'zod/mini'
import type { ApiClientOptions } from '../apiBase'
import { createJsonRequest } from '../jsonRequest'

const limitSchema = z.object({ id: z.string(), min: z.string(), max: z.string() })
const networkSchema = z.object({ name: z.string(), display_name: z.string(), chain_id: z.string(), contract_address: z.string() })
const optionsSchema = z.object({
  paymentCurrencies: z.array(z.object({ id: z.string(), payment_method_limits: z.array(limitSchema) })),
  purchaseCurrencies: z.array(z.object({ id: z.string(), name: z.string(), symbol: z.string(), networks: z.array(networkSchema) })),
  // The providers list is checked by onrampProviders (spec §5), not here: a malformed one is emptied, not an error.
  providers: z.optional(z.unknown()),
  fallback: z.optional(z.boolean()),
})
const amountSchema = z.object({ amount: z.string(), currency: z.string() })
const quoteSchema = z.object({
  paymentTotal: amountSchema,
  paymentSubtotal: amountSchema,
  purchaseAmount: amountSchema,
  fees: amountSchema,
  networkFee: amountSchema,
  quoteId: z.string(),
  provider: z.string(),
})
const checkoutSchema = z.object({ url: z.string(), orderId: z.string() })
const orderSchema = z.object({
  id: z.string(),
  provider: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  address: z.string(),
  network: z.string(),
  chainId: z.string(),
  purchaseCurrency: z.string(),
  purchaseAmount: z.string(),
  paymentCurrency: z.string(),
  paymentAmount: z.string(),
  txHash: z.optional(z.string()),
  error: z.optional(z.string()),
})

/** What can be bought and with what (spec §3 on-ramp options). */
export type OnrampOptions = Omit<z.infer<typeof optionsSchema>, 'providers' | 'fallback'>
/** A payment currency and its methods' limits. */
export type PaymentCurrency = OnrampOptions['paymentCurrencies'][number]
/** A purchase currency and its networks. */
export type PurchaseCurrency = OnrampOptions['purchaseCurrencies'][number]
/** A quote (spec §3 on-ramp quote). */
export type OnrampQuote = z.infer<typeof quoteSchema>
/** An order a checkout made. */
export type OnrampOrder = z.infer<typeof orderSchema>

/** The options answer: the options, latchd's providers as sent, and whether they are the built-in ones. */
export interface OptionsAnswer {
  readonly options: OnrampOptions
  readonly providers: unknown
  readonly fallback: boolean
}

/** A quote request; the currencies are ids, the amount fiat decimal text. */
export interface QuoteRequest {
  readonly purchaseCurrency: string
  readonly paymentCurrency: string
  readonly amount: string
  readonly network: string
  readonly paymentMethod?: string | undefined
  readonly provider?: string | undefined
  readonly address?: string | undefined
}

/** A refusal of an on-ramp route: latchd's reason when it gave one. */
export class OnrampRequestError extends Error {
  override readonly name = 'OnrampRequestError'
  constructor(
    readonly status: number,
    /** latchd's reason, shown to the visitor as it is. */
    readonly reason: string | undefined,
    route: string,
  ) {
    super(reason ?? `${route}: HTTP status code: ${status}`)
  }
}

/** The on-ramp client. */
export interface OnrampClient {
  options(provider?: string): Promise<OptionsAnswer>
  quote(request: QuoteRequest, init?: { signal?: AbortSignal }): Promise<OnrampQuote>
  /** Records an order and answers its checkout URL (POST /v1/generators/onrampurl). */
  checkout(request: QuoteRequest & { address: string }): Promise<{ url: string; orderId: string }>
  order(id: string): Promise<OnrampOrder>
}

/** createOnrampClient makes a client of the on-ramp routes of the latchd at options.apiUrl. */
export function createOnrampClient(options: ApiClientOptions): OnrampClient {
  const request = createJsonRequest(options, OnrampRequestError)

  const quoteBody = (r: QuoteRequest) => ({
    purchaseCurrency: r.purchaseCurrency,
    paymentCurrency: r.paymentCurrency,
    amount: r.amount,
    network: r.network,
    ...(r.paymentMethod ? { paymentMethod: r.paymentMethod } : {}),
    ...(r.provider ? { provider: r.provider } : {}),
    ...(r.address ? { address: r.address } : {}),
  })

  return {
    async options(provider) {
      const { providers, fallback, ...opts } = await request('/v1/onramp/options', '/v1/onramp/options', optionsSchema, provider ? { provider } : {})
      return { options: opts, providers, fallback: fallback ?? false }
    },
    quote: (r, init) => request('/v1/onramp/quote', '/v1/onramp/quote', quoteSchema, {}, { body: JSON.stringify(quoteBody(r)), signal: init?.signal }),
    checkout: (r) =>
      request('/v1/generators/onrampurl', '/v1/generators/onrampurl', checkoutSchema, {}, {
        body: JSON.stringify({
          destinationWallets: [{ address: r.address, assets: [r.purchaseCurrency] }],
          defaultNetwork: r.network,
          defaultExperience: 'buy',
          presetFiatAmount: r.amount,
          paymentCurrency: r.paymentCurrency,
          ...(r.paymentMethod ? { paymentMethod: r.paymentMethod } : {}),
          ...(r.provider ? { provider: r.provider } : {}),
        }),
      }),
    order: (id) => request('/v1/onramp/orders/{id}', `/v1/onramp/orders/${encodeURIComponent(id)}`, orderSchema, {}),
  }
}
