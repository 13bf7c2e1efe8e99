// Shapes of latchd's account-data routes (api-shapes §3.1–3.3, §3.5; spec §3).
// The zod schemas in client.ts validate these; the types are kept here so
// the send and formatting code can use them without the schemas.

/** One token balance of GET /v1/account/{address}/balance (api-shapes §3.1). */
export interface TokenBalance {
  readonly name: string
  readonly symbol: string
  /** CAIP-2 network id, e.g. `eip155:1`. */
  readonly chainId: string
  /** CAIP-10 token address (`eip155:1:0x…`); absent for the native currency. */
  readonly address?: string | undefined
  /** Fiat value of the quantity, in the requested currency. */
  readonly value?: number | undefined
  /** Fiat price of one token. */
  readonly price: number
  /** Decimals as a string, quantity in whole tokens (human units), e.g. `{decimals: '6', numeric: '1.5'}`. */
  readonly quantity: { readonly decimals: string; readonly numeric: string }
  readonly iconUrl: string
}

/** Transaction status (api-shapes §3.2). */
export type TransactionStatus = 'confirmed' | 'failed' | 'pending'

/** One transfer of a history item (snake_case on the wire, api-shapes §3.2). */
export interface TransactionTransfer {
  readonly fungible_info?: { readonly name?: string | undefined; readonly symbol?: string | undefined; readonly icon?: { readonly url: string } | undefined } | undefined
  readonly nft_info?:
    | {
        readonly name?: string | undefined
        readonly content?: { readonly preview?: { readonly url: string } | undefined } | undefined
        readonly flags: { readonly is_spam: boolean }
      }
    | undefined
  readonly direction: 'in' | 'out' | 'self'
  readonly quantity: { readonly numeric: string }
  readonly value?: number | undefined
  readonly price?: number | undefined
  /** Latch addition: who sent and who received this transfer (the transaction's `to` may be a token contract). */
  readonly sender?: string | undefined
  readonly recipient?: string | undefined
}

/** One history item (spec §3 "Transaction history item"). */
export interface Transaction {
  readonly id: string
  readonly metadata: {
    /** send, receive, trade, execute, approve, mint, burn, deposit, withdraw, … */
    readonly operationType: string
    readonly hash: string
    /** CAIP-2 network id. */
    readonly chain: string
    /** ISO 8601. */
    readonly minedAt: string
    readonly sentFrom: string
    readonly sentTo: string
    readonly status: TransactionStatus
    readonly nonce: number
  }
  readonly transfers: readonly TransactionTransfer[] | null
}

/** One page of history: the items and the cursor of the next page (null at the end). */
export interface TransactionPage {
  readonly data: readonly Transaction[]
  readonly next: string | null
}

/** GET /v1/identity/{address} (api-shapes §3.3). */
export interface Identity {
  readonly name: string | null
  readonly avatar: string | null
}

/** One price of POST /v1/fungible/price (api-shapes §3.5). */
export interface FungiblePrice {
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly iconUrl: string
  readonly price: number
  readonly decimals?: number | undefined
}
