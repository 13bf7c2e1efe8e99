// Types of latch.pay (issue 22): a payment request a dapp opens, where it
// stands, and its result. Kept apart from the module so the instance's
// types can name them without loading it.

/** What a dapp asks to be paid. */
export interface PayRequest {
  /** The address that receives the payment: 0x and 40 hexadecimal characters. */
  readonly recipient: string
  /** The amount in whole units of the asset, e.g. "5" or 5. */
  readonly amount: string | number
  /** The asset: a token symbol (USDC), a token address, or the network's native symbol (ETH). */
  readonly asset: string
  /** The network: a CAIP-2 id (eip155:1) or an EVM chain id; one of the app's networks. */
  readonly network: string | number
}

/** A completed payment. */
export interface PayResult {
  /** The transaction's hash. */
  readonly hash: string
  readonly chainId: number
  readonly recipient: string
  readonly amount: string
  readonly asset: string
}

/** Where the Pay view stands. */
export type PayStatus = 'idle' | 'checking' | 'ready' | 'insufficient' | 'buying' | 'paying' | 'success' | 'error' | 'cancelled'

/** The pay slice of an instance's root store. */
export interface PayState {
  /** The request being paid, as normalised. */
  readonly request: (Omit<PayRequest, 'amount' | 'network'> & { amount: string; chainId: number }) | undefined
  readonly status: PayStatus
  /** The connected account's balance of the asset on the network, once read (whole units). */
  readonly balance: string | undefined
  /** What the balance lacks to pay, when it lacks anything (whole units). */
  readonly missing: string | undefined
  /** The last completed payment (getPayResult). */
  readonly result: PayResult | undefined
  /** Why the last attempt failed, for the view. */
  readonly error: string | undefined
}
