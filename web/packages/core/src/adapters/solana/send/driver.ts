// The solana send driver: what the send form asks of a Solana cluster. SOL
// goes by the System program's transfer; an SPL token by transferChecked
// between associated token accounts, creating the receiver's when it has
// none (the sender pays its rent). @solana/kit builds the transaction; the
// connected Wallet Standard wallet signs and sends it with the caller's
// options (spec §3: skipPreflight, preflightCommitment, maxRetries,
// minContextSlot). Reads go through latchd's RPC proxy.
import { getTransferSolInstruction } from '@solana-program/system'
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from '@solana/kit'
import { isNativeBalance, tokenContractAddress } from '../../../account/format'
import type { TokenBalance } from '../../../account/types'
import { base58 } from '../../../base58'
import { formatDecimal } from '../../../send/decimal'
import { LatchSendError, SEND_MESSAGES, toSendError } from '../../../send/errors'
import type { NameResolver } from '../../../send/resolver'
import type { FeeEstimate, SendContext } from '../../../send/types'
import { solanaSendOptions, tokenDecimals, type SolanaSendOptions } from '../../../send/validation'
import type { Latch } from '../../../latch-types'
import type { SendDriver, Transfer } from '../../types'
import { walletStandardChain } from '../chains'
import type { SolanaNetwork } from '../network'
import { solanaRpc, solanaRpcUrl, SolanaRpcError } from '../rpc'
import { featuresOf, type StandardAccount, type StandardWallet } from '../walletStandard'

/** The id latchd's balance route takes for a Solana network's native SOL in forceUpdate (the System program). */
export const SYSTEM_PROGRAM = '11111111111111111111111111111111'

/** Size of an SPL token account (the receiver's, when it must be created). */
const TOKEN_ACCOUNT_SIZE = 165

/** What the driver needs of the Solana client. */
export interface SolanaDriverContext {
  readonly latch: Latch
  /** The configured Solana network with this id (else the active or first one). */
  network(chainId: number | undefined): SolanaNetwork
  /** The connected wallet and account; throws when none is connected. */
  signer(): { wallet: StandardWallet; account: StandardAccount }
}

/** A FeeEstimate of a Solana transfer: what the form shows, plus the send options to send with. */
export type SolanaFeeEstimate = FeeEstimate & { readonly solana: SolanaSendOptions }

const base64 = getBase64Decoder()

/** createSolanaSendDriver binds the solana send driver to the client. */
export function createSolanaSendDriver(ctx: SolanaDriverContext): SendDriver {
  const rpcOf = (chainId: number) => {
    const url = solanaRpcUrl(ctx.latch, ctx.network(chainId))
    return <T>(method: string, params: readonly unknown[]) => solanaRpc<T>(url, method, params)
  }
  return {
    readBalances: (send, token) => readBalances(rpcOf(send.chain.id), send.address, token),
    async estimateFee(send, transfer, overrides, balances) {
      const options = solanaSendOptions(overrides)
      const rpc = rpcOf(send.chain.id)
      try {
        const { instructions, rent } = await buildInstructions(rpc, send.address, transfer)
        const { value } = await rpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>('getLatestBlockhash', [{ commitment: 'confirmed' }])
        const message = compile(send.address, value.blockhash, instructions)
        const fee = await rpc<{ value: number | null }>('getFeeForMessage', [base64.decode(message.messageBytes), { commitment: 'confirmed' }])
        if (fee.value === null) throw new Error('getFeeForMessage: the blockhash expired')
        return feeEstimate(send, BigInt(fee.value), rent, balances, options)
      } catch (error) {
        throw toSendError(error, 'estimate')
      }
    },
    async send(send, transfer, fee) {
      const options = (fee as Partial<SolanaFeeEstimate>).solana ?? {}
      const rpc = rpcOf(send.chain.id)
      let signature: string
      try {
        const { instructions } = await buildInstructions(rpc, send.address, transfer)
        signature = await signAndSend(ctx, rpc, ctx.network(send.chain.id), send.address, instructions, options)
      } catch (error) {
        throw toSendError(error)
      }
      return signature
    },
    waitForReceipt: (chainId, signature, options) => waitForSignature(rpcOf(chainId), signature, options),
    nativeTokenId: (chainId) => `${ctx.network(chainId).caipNetworkId}:${SYSTEM_PROGRAM}`,
    nameResolver: (): NameResolver => ({
      // No Solana naming service is built in; an app may set its own resolver.
      resolve: async (_name, chain) => {
        throw new LatchSendError('invalid_receiver', SEND_MESSAGES.namesUnsupported(chain.name))
      },
    }),
  }
}

type Rpc = <T>(method: string, params: readonly unknown[]) => Promise<T>

/** The SPL token accounts of `owner` for `mint`, with their raw amounts (jsonParsed). */
async function tokenAccounts(rpc: Rpc, owner: string, mint: string): Promise<{ pubkey: string; amount: bigint }[]> {
  const { value } = await rpc<{ value: { pubkey: string; account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] }>(
    'getTokenAccountsByOwner',
    [owner, { mint }, { encoding: 'jsonParsed', commitment: 'confirmed' }],
  )
  return value.map((a) => ({ pubkey: a.pubkey, amount: BigInt(a.account.data.parsed.info.tokenAmount.amount) }))
}

/** The native and token balances on chain now. */
async function readBalances(rpc: Rpc, owner: string, token: TokenBalance): Promise<{ native: bigint; token: bigint }> {
  const { value } = await rpc<{ value: number }>('getBalance', [owner, { commitment: 'confirmed' }])
  const native = BigInt(value)
  if (isNativeBalance(token)) return { native, token: native }
  const accounts = await tokenAccounts(rpc, owner, tokenContractAddress(token.address!))
  return { native, token: accounts.reduce((sum, a) => sum + a.amount, 0n) }
}

/**
 * The instructions of a transfer: a SOL transfer, or an SPL transferChecked
 * from the sender's associated token account to the receiver's (created,
 * idempotently, when missing: `rent` is what the sender pays for it).
 */
export async function buildInstructions(rpc: Rpc, from: string, transfer: Transfer): Promise<{ instructions: Instruction[]; rent: bigint }> {
  const sender = createNoopSigner(address(from))
  const to = address(transfer.to)
  if (isNativeBalance(transfer.token)) {
    return { instructions: [getTransferSolInstruction({ source: sender, destination: to, amount: transfer.amount })], rent: 0n }
  }
  const mint = address(tokenContractAddress(transfer.token.address!))
  const decimals = tokenDecimals(transfer.token)
  const [[source], [destination]] = await Promise.all([
    findAssociatedTokenPda({ owner: sender.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
    findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
  ])
  const instructions: Instruction[] = []
  let rent = 0n
  const existing = await rpc<{ value: unknown }>('getAccountInfo', [destination, { encoding: 'base64', commitment: 'confirmed' }])
  if (!existing.value) {
    rent = BigInt(await rpc<number>('getMinimumBalanceForRentExemption', [TOKEN_ACCOUNT_SIZE]))
    instructions.push(getCreateAssociatedTokenIdempotentInstruction({ payer: sender, ata: destination, owner: to, mint }))
  }
  instructions.push(getTransferCheckedInstruction({ source, mint, destination, authority: sender, amount: transfer.amount, decimals }))
  return { instructions, rent }
}

/** Compiles the unsigned transaction (the sender pays its fee). */
function compile(from: string, blockhash: string, instructions: Instruction[]) {
  return compileTransaction(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(from), m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  )
}

function feeEstimate(send: SendContext, fee: bigint, rent: bigint, balances: readonly TokenBalance[], options: SolanaSendOptions): SolanaFeeEstimate {
  const { decimals, symbol } = send.chain.nativeCurrency
  const native = balances.find((b) => isNativeBalance(b) && b.price > 0)
  const expected = fee + rent
  const formatted = formatDecimal(expected, decimals)
  return {
    // A Solana fee is per signature, not gas: `gas` carries the lamports of the fee itself.
    gas: fee,
    expected,
    worstCase: expected,
    nativeSymbol: symbol,
    nativeDecimals: decimals,
    formatted,
    usd: native ? Number(formatted) * native.price : undefined,
    solana: options,
  }
}

/**
 * Builds the transaction with a fresh blockhash and has the wallet sign and
 * send it with the options; a wallet with only signTransaction signs, and
 * the node is sent the signed transaction with the same options.
 */
async function signAndSend(ctx: SolanaDriverContext, rpc: Rpc, network: SolanaNetwork, from: string, instructions: Instruction[], options: SolanaSendOptions): Promise<string> {
  const { wallet, account } = ctx.signer()
  if (account.address !== from) throw new LatchSendError('unknown', SEND_MESSAGES.wrongSolanaAccount(account.address, from))
  const { value } = await rpc<{ value: { blockhash: string } }>('getLatestBlockhash', [{ commitment: options.preflightCommitment ?? 'confirmed' }])
  const tx = compile(from, value.blockhash, instructions)
  const bytes = new Uint8Array(getTransactionEncoder().encode(tx))
  const chain = walletStandardChain(network)
  const features = featuresOf(wallet)
  const send = features['solana:signAndSendTransaction']
  if (send) {
    const [out] = await send.signAndSendTransaction({ account, transaction: bytes, chain, options: { ...options } })
    if (!out) throw new Error(`${wallet.name} returned no signature`)
    return base58.encode(out.signature)
  }
  const sign = features['solana:signTransaction']
  if (!sign) throw new LatchSendError('unknown', SEND_MESSAGES.solanaCannotSign(wallet.name))
  const [signed] = await sign.signTransaction({ account, transaction: bytes, chain })
  if (!signed) throw new Error(`${wallet.name} returned no signed transaction`)
  return rpc<string>('sendTransaction', [base64.decode(signed.signedTransaction), { encoding: 'base64', ...options }])
}

/** sendLamports sends a SOL transfer through the connected wallet (the adapter's sendTransaction). */
export async function sendLamports(ctx: SolanaDriverContext, network: SolanaNetwork, from: string, to: string, lamports: bigint, options: SolanaSendOptions): Promise<string> {
  const url = solanaRpcUrl(ctx.latch, network)
  const rpc: Rpc = (method, params) => solanaRpc(url, method, params)
  const instructions = [getTransferSolInstruction({ source: createNoopSigner(address(from) as Address), destination: address(to), amount: lamports })]
  return signAndSend(ctx, rpc, network, from, instructions, solanaSendOptions(options))
}

/**
 * Waits for a signature's outcome: polls getSignatureStatuses from
 * firstDelayMs, doubling up to 4 s, until confirmed; 'reverted' when the
 * transaction failed on chain; rejects after timeoutMs.
 */
export async function waitForSignature(rpc: Rpc, signature: string, options: { timeoutMs: number; firstDelayMs: number }): Promise<'success' | 'reverted'> {
  const deadline = Date.now() + options.timeoutMs
  let delay = options.firstDelayMs
  for (;;) {
    try {
      const { value } = await rpc<{ value: ({ err: unknown; confirmationStatus?: string | null } | null)[] }>('getSignatureStatuses', [[signature]])
      const status = value[0]
      if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) return status.err ? 'reverted' : 'success'
    } catch (error) {
      // A failed poll is retried like an empty one, unless the node refuses the signature itself.
      if (error instanceof SolanaRpcError && error.code === -32602) throw error
    }
    if (Date.now() + delay > deadline) throw new Error(`No confirmation of ${signature} after ${options.timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 4_000)
  }
}
