// The send module's types: the state of the form (spec §3), what the
// controller needs and returns, and the controller's own interface.
import type { Chain } from 'viem'
import type { AccountData } from '../account/data'
import type { TokenBalance } from '../account/types'
import type { SendDriver } from '../adapters/types'
import type { SliceFactory, Store } from '../store'
import type { LatchSendError } from './errors'
import type { NameResolver } from './resolver'
import type { FeeOverrides } from './validation'

/** A fee estimate: gas limit × price, shown in the native currency and in USD. */
export interface FeeEstimate {
  readonly gas: bigint
  /** EIP-1559 fees, or gasPrice on a legacy chain (never both, spec §8). */
  readonly maxFeePerGas?: bigint | undefined
  readonly maxPriorityFeePerGas?: bigint | undefined
  readonly gasPrice?: bigint | undefined
  /** Expected cost: gas × the current gas price (wei). */
  readonly expected: bigint
  /** Worst case the wallet may charge: gas × max fee per gas (wei); used for the balance check and "max". */
  readonly worstCase: bigint
  readonly nativeSymbol: string
  readonly nativeDecimals: number
  /** The expected fee in whole native units ("0.000021"). */
  readonly formatted: string
  /** The expected fee in USD, when the native price is known. */
  readonly usd: number | undefined
}

/** The send state (spec §3), plus the form's progress. */
export interface SendState {
  readonly token: TokenBalance | undefined
  /** The amount as typed (decimal text). */
  readonly sendTokenAmount: string
  /** The receiver as typed: an address or a name. */
  readonly receiverAddress: string
  /** The receiver's address once checked or resolved. */
  readonly resolvedReceiver: string | undefined
  readonly receiverProfileName: string | undefined
  readonly receiverProfileImageUrl: string | undefined
  /** A name is being resolved. */
  readonly resolving: boolean
  /** The native balance's USD value, as text with 2 decimals. */
  readonly networkBalanceInUSD: string | undefined
  readonly tokenBalances: readonly TokenBalance[]
  readonly fee: FeeEstimate | undefined
  readonly estimating: boolean
  /** Set during the send, cleared afterwards (spec §4). */
  readonly loading: boolean
  readonly step: 'form' | 'review'
  /** The message of the last failure, for the form. */
  readonly error: string | undefined
  readonly errorKind: LatchSendError['kind'] | undefined
}

/** What the controller needs to know about the connection right now. */
export interface SendContext {
  readonly namespace: string
  readonly address: string
  readonly chain: Chain
}

/** A transaction the controller sent. */
export interface SendResult {
  readonly hash: string
  readonly chainId: number
  /** The network's block explorer page of the transaction, when the network has an explorer. */
  readonly explorerUrl: string | undefined
  readonly native: boolean
}

/** What a sent transaction's success toast needs. */
export interface SendNotice {
  readonly message: string
  /** A link to the transaction on the network's block explorer. */
  readonly link?: { readonly url: string; readonly label: string } | undefined
}

/** Parameters of createSendController. */
export interface SendControllerParameters {
  /** The send driver of a namespace (its adapter's), or undefined when the namespace has none. */
  readonly driver: (namespace: string) => Promise<SendDriver | undefined>
  /** Where the form's state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<SendState> | undefined
  /** The connected account and its network, or undefined when disconnected. */
  readonly getContext: () => SendContext | undefined
  readonly accountData: AccountData
  /** Resolves receiver names; default: the namespace driver's (ENS on eip155, where the chain has it). */
  readonly resolver?: NameResolver | undefined
  /** Success toast (with the explorer link) and error toast. */
  readonly notify: { success(notice: SendNotice): void; error(message: string): void }
  /** Called after a successful token transfer: spec §4 returns the view to Account. */
  readonly returnToAccount: () => void
  /** NETWORK_SWITCHED; the form is cleared on it (spec §4). */
  readonly onNetworkSwitched?: ((listener: () => void) => () => void) | undefined
  /** Waits for the receipt before refreshing balances (default true). */
  readonly waitForReceipt?: boolean
  /** The active locale and its catalogue, read when a message is recorded or shown (default English). */
  readonly locale?: (() => { readonly locale: string; readonly catalogue: Readonly<Record<string, string>> | undefined }) | undefined
}

/** Options of one send from code (the headless hook). */
export interface SendRequest extends FeeOverrides {
  readonly token?: TokenBalance | undefined
  readonly amount?: string | undefined
  readonly receiver?: string | undefined
}

/** The send controller. */
export interface SendController {
  readonly store: Store<SendState>
  setTokenBalances(balances: readonly TokenBalance[]): void
  setToken(token: TokenBalance | undefined): void
  setAmount(amount: string): void
  /** Sets the receiver text; a name is resolved, an address checked, and the identity looked up. */
  setReceiver(receiver: string): Promise<void>
  /** Fills in the largest amount: the token balance, less the worst-case fee for the native currency. */
  setMax(): Promise<void>
  /** Validates, estimates the fee, checks balances; on success the step becomes 'review'. Returns whether it did. */
  review(overrides?: FeeOverrides): Promise<boolean>
  /** Back from review to the form. */
  edit(): void
  /**
   * Sends the reviewed transaction through the wallet. `loading` is set while
   * it runs and cleared after; on success the form resets, balances refresh,
   * a success toast links to the explorer and token transfers return to
   * Account (spec §4). Throws a LatchSendError on failure (also kept in state).
   */
  send(): Promise<SendResult>
  /** Validates, estimates, checks and sends in one call (headless use). */
  sendNow(request?: SendRequest): Promise<SendResult>
  /** Clears the form (spec §4: after a send and on a network switch). */
  reset(): void
  /** Replaces the name resolver (e.g. an app's own naming service instead of ENS). */
  setResolver(resolver: NameResolver | undefined): void
  destroy(): void
}
