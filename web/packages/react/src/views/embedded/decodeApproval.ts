// What ApproveTransaction shows of a request the frame waits to sign, decoded
// from its parameters: a message as text (or hex when it is not text), typed
// data's domain and type, and a transaction's recipient, amount and token (an
// ERC-20 transfer's data is decoded to its recipient and amount).
import type { ApprovalRequest } from '@latchkit/core'
import { formatUnits, getAddress, hexToString, isHex, type Address, type Chain, type Hex } from 'viem'

/** A decoded approval request. */
export type DecodedApproval =
  | { kind: 'message'; text: string }
  | { kind: 'typedData'; primaryType: string; domain: string; json: string }
  | {
      kind: 'transaction'
      from: Address | undefined
      to: Address | undefined
      /** The amount in the token's units, as text; for an ERC-20 transfer of unknown decimals, its base units. */
      amount: string
      /** The native currency's symbol, or the token contract's address. */
      token: string
      /** Whether the amount is in base units (an ERC-20 token whose decimals the page does not know). */
      baseUnits: boolean
      value: bigint
      data: Hex | undefined
      gas: bigint | undefined
      maxFeePerGas: bigint | undefined
      /** A smart account's user operation whose gas the app's paymaster pays (the frame marks it). */
      sponsored: boolean
    }
  | { kind: 'other'; json: string }

interface TxParams {
  from?: Address
  to?: Address
  value?: Hex
  data?: Hex
  input?: Hex
  gas?: Hex
  maxFeePerGas?: Hex
  gasPrice?: Hex
  sponsored?: unknown
}

/** The selector of ERC-20 transfer(address,uint256). */
const TRANSFER_SELECTOR = '0xa9059cbb'

/** erc20Transfer reads transfer(to, amount) call data: the selector, then two 32-byte words. */
function erc20Transfer(data: Hex): { to: Address; amount: bigint } | undefined {
  if (data.length !== 2 + 8 + 64 * 2 || data.slice(0, 10).toLowerCase() !== TRANSFER_SELECTOR) return undefined
  const word = (i: number) => data.slice(10 + 64 * i, 10 + 64 * (i + 1))
  if (!/^0{24}/.test(word(0))) return undefined
  return { to: getAddress(`0x${word(0).slice(24)}`), amount: BigInt(`0x${word(1)}`) }
}

const printable = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/

function bigintOf(hex: Hex | undefined): bigint | undefined {
  return hex && isHex(hex) ? BigInt(hex) : undefined
}

/** decodeApproval turns a request's parameters into what the view shows; chain is the request's chain. */
export function decodeApproval(request: ApprovalRequest, chain: Chain | undefined): DecodedApproval {
  const params = Array.isArray(request.params) ? (request.params as unknown[]) : []
  switch (request.method) {
    case 'personal_sign': {
      const message = params[0]
      if (typeof message !== 'string') return { kind: 'other', json: JSON.stringify(request.params) }
      if (!isHex(message)) return { kind: 'message', text: message }
      const text = hexToString(message)
      return { kind: 'message', text: printable.test(text) ? text : message }
    }
    case 'eth_signTypedData_v4': {
      const raw = params[1]
      try {
        const data = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { primaryType?: string; domain?: { name?: string; chainId?: unknown; verifyingContract?: string } }
        const domain = [data.domain?.name, data.domain?.verifyingContract].filter(Boolean).join(' · ')
        return { kind: 'typedData', primaryType: data.primaryType ?? '', domain, json: JSON.stringify(data, null, 2) }
      } catch {
        return { kind: 'other', json: String(raw) }
      }
    }
    case 'eth_sendTransaction': {
      const tx = (params[0] ?? {}) as TxParams
      const value = bigintOf(tx.value) ?? 0n
      const data = tx.data ?? tx.input
      const common = { from: tx.from, value, data, gas: bigintOf(tx.gas), maxFeePerGas: bigintOf(tx.maxFeePerGas ?? tx.gasPrice), sponsored: tx.sponsored === true }
      const transfer = data && tx.to ? erc20Transfer(data) : undefined
      if (transfer && tx.to) return { kind: 'transaction', ...common, to: transfer.to, amount: transfer.amount.toString(), token: tx.to, baseUnits: true }
      const currency = chain?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 }
      return { kind: 'transaction', ...common, to: tx.to, amount: formatUnits(value, currency.decimals), token: currency.symbol, baseUnits: false }
    }
    case 'solana_signMessage': {
      // The frame sends the message as base58 bytes, with `text` when those bytes are UTF-8.
      const { message, text } = (request.params ?? {}) as { message?: unknown; text?: unknown }
      if (typeof text === 'string' && printable.test(text)) return { kind: 'message', text }
      return typeof message === 'string' ? { kind: 'message', text: message } : { kind: 'other', json: JSON.stringify(request.params) }
    }
    default:
      return { kind: 'other', json: JSON.stringify(request.params, null, 2) }
  }
}
