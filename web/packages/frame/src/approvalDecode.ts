// What the frame's approval view shows of a request, decoded from what is
// about to be signed (the parameters after the frame filled them in): a
// message as text, typed data's domain and primary type (an unlimited permit
// called out), and, in scripts of their own loaded for them only, a
// transaction (approvalDecodeTx.ts: recipient, amount, fee, ERC-20 transfers
// and approvals, a user operation's calls) and a Solana transaction's
// instructions (approvalDecodeSolana.ts). No DOM and no curve code.
import type { ShownRequest } from './approval'
import type { ApprovalStringKey, EnglishStrings } from './approvalStrings'

/** A line of the view: a label, the value, its test id; `full` is the untruncated value (a title). */
export interface ApprovalRow {
  readonly label: ApprovalStringKey
  readonly value: string
  readonly testId: string
  readonly mono?: boolean
  /** Shown instead of value: one of the view's strings. */
  readonly valueKey?: ApprovalStringKey
}

/** A warning shown above the details, in the view's language. */
export interface ApprovalWarning {
  readonly key: ApprovalStringKey
  readonly params?: Record<string, string>
}

/** A decoded request. */
export interface DecodedApproval {
  /** The view's question (sign a message, send a transaction, …). */
  readonly title: ApprovalStringKey
  readonly rows: readonly ApprovalRow[]
  readonly warnings: readonly ApprovalWarning[]
  /** A user operation's calls or a Solana transaction's instructions, one line each. */
  readonly items?: { readonly label: ApprovalStringKey; readonly testId: string; readonly lines: readonly string[] }
  /** The raw request (typed data's message, unknown call data), shown below. */
  readonly raw?: string
  /** English strings of the decoding script that made this (the view's lookup falls back to them). */
  readonly english?: EnglishStrings
}

/** 2^256 − 1: an ERC-20 approval of this (or anything at least 2^255) is an unlimited one. */
export const UNLIMITED = 1n << 255n

/** Known chains' names and native currencies; others show their id and "ETH" as the unit of value and fees. */
export const CHAINS: Record<number, [string, string]> = {
  1: ['Ethereum', 'ETH'],
  10: ['OP Mainnet', 'ETH'],
  56: ['BNB Smart Chain', 'BNB'],
  100: ['Gnosis', 'xDAI'],
  137: ['Polygon', 'POL'],
  324: ['zkSync Era', 'ETH'],
  8453: ['Base', 'ETH'],
  42161: ['Arbitrum One', 'ETH'],
  42220: ['Celo', 'CELO'],
  43114: ['Avalanche', 'AVAX'],
  59144: ['Linea', 'ETH'],
  84532: ['Base Sepolia', 'ETH'],
  11155111: ['Sepolia', 'ETH'],
  11155420: ['OP Sepolia', 'ETH'],
  31337: ['Localhost 31337', 'ETH'],
}

/** evmChainOf reads an EVM chain id (number, "1", "0x1", "eip155:1"). */
function evmChainOf(id: string | number): number | undefined {
  const s = String(id).replace(/^eip155:/, '')
  const n = /^0x[0-9a-f]+$/i.test(s) ? parseInt(s, 16) : /^\d+$/.test(s) ? Number(s) : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** chainName is what the view shows for a request's chain. */
export function chainName(namespace: 'eip155' | 'solana', id: string | number): string {
  if (namespace === 'solana') {
    const ref = String(id).replace(/^solana:/, '')
    const named: Record<string, string> = { '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'Solana', EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'Solana Devnet', '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'Solana Testnet' }
    return named[ref] ?? `Solana ${ref}`
  }
  const n = evmChainOf(id)
  return n === undefined ? String(id) : (CHAINS[n]?.[0] ?? `Chain ${n}`)
}

/** formatUnits writes v / 10^decimals in plain decimals ("0.01"), without trailing zeros. */
export function formatUnits(v: bigint, decimals: number): string {
  const neg = v < 0n
  const s = (neg ? -v : v).toString().padStart(decimals + 1, '0')
  const int = s.slice(0, s.length - decimals)
  const frac = s.slice(s.length - decimals).replace(/0+$/, '')
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`
}

export const bigOf = (q: unknown): bigint | undefined => {
  try {
    return typeof q === 'string' || typeof q === 'number' || typeof q === 'bigint' ? BigInt(q) : undefined
  } catch {
    return undefined
  }
}

export const printable = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/

/** hexText is 0x… bytes as UTF-8 text when they are printable text, else undefined. */
function hexText(h: string): string | undefined {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(h)) return undefined
  const bytes = new Uint8Array((h.length - 2) / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(h.slice(2 + 2 * i, 4 + 2 * i), 16)
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return printable.test(text) ? text : undefined
  } catch {
    return undefined
  }
}

/** The typed data fields the view reads. */
interface TypedData {
  primaryType?: unknown
  domain?: { name?: unknown; version?: unknown; chainId?: unknown; verifyingContract?: unknown }
  message?: Record<string, unknown>
}

/** A permit's spender and amount (EIP-2612 Permit, Permit2's PermitSingle / PermitTransferFrom), if typed is one. */
function permitOf(typed: TypedData): { spender: string; amount: bigint | undefined } | undefined {
  const m = typed.message
  if (!m || typeof m.spender !== 'string') return undefined
  const details = m.details as { amount?: unknown } | undefined
  const permitted = m.permitted as { amount?: unknown } | undefined
  return { spender: m.spender, amount: bigOf(m.value) ?? bigOf(details?.amount) ?? bigOf(permitted?.amount) }
}

/** decodeApproval is what the view shows of request. */
export async function decodeApproval(request: ShownRequest): Promise<DecodedApproval> {
  const chain: ApprovalRow = { label: 'approve.network', value: chainName(request.chainNamespace, request.chainId), testId: 'latch-approve-network' }
  const params = Array.isArray(request.params) ? (request.params as unknown[]) : []
  const evmChain = request.chainNamespace === 'eip155' ? evmChainOf(request.chainId) : undefined
  const symbol = (evmChain !== undefined ? CHAINS[evmChain]?.[1] : undefined) ?? 'ETH'
  switch (request.method) {
    case 'personal_sign': {
      const message = params[0]
      const text = typeof message === 'string' ? (message.startsWith('0x') ? (hexText(message) ?? message) : message) : JSON.stringify(message)
      return { title: 'approve.signMessage', rows: [{ label: 'approve.message', value: text, testId: 'latch-approve-message' }, chain], warnings: [] }
    }
    case 'eth_signTypedData_v4': {
      let typed: TypedData = {}
      const raw = params[1]
      try {
        typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedData
      } catch {
        return { title: 'approve.signTypedData', rows: [chain], warnings: [], raw: String(raw) }
      }
      const d = typed.domain ?? {}
      const domain = [d.name, d.version ? `v${String(d.version)}` : undefined].filter((x) => x !== undefined && x !== '').map(String).join(' ')
      const warnings: ApprovalWarning[] = []
      const permit = permitOf(typed)
      if (permit && permit.amount !== undefined && permit.amount >= UNLIMITED) warnings.push({ key: 'approve.unlimited', params: { spender: permit.spender, token: String(d.verifyingContract ?? d.name ?? '—') } })
      const domainChain = d.chainId === undefined ? undefined : evmChainOf(String(d.chainId))
      if (domainChain !== undefined && evmChain !== undefined && domainChain !== evmChain) warnings.push({ key: 'approve.otherChain', params: { chain: chainName('eip155', domainChain) } })
      return {
        title: 'approve.signTypedData',
        rows: [
          { label: 'approve.primaryType', value: String(typed.primaryType ?? '—'), testId: 'latch-approve-typed' },
          { label: 'approve.domain', value: domain || '—', testId: 'latch-approve-domain' },
          ...(d.verifyingContract ? [{ label: 'approve.contract', value: String(d.verifyingContract), testId: 'latch-approve-verifying-contract', mono: true } as const] : []),
          ...(domainChain !== undefined ? [{ label: 'approve.domainChain', value: chainName('eip155', domainChain), testId: 'latch-approve-domain-chain' } as const] : []),
          ...(permit ? [{ label: 'approve.spender', value: permit.spender, testId: 'latch-approve-spender', mono: true } as const] : []),
          chain,
        ],
        warnings,
        raw: JSON.stringify(typed.message ?? typed, null, 2),
      }
    }
    case 'eth_sendTransaction':
      // A transaction's decoding (calls, ERC-20) is a script of its own, as is a Solana transaction's:
      // a message or typed data loads neither.
      return (await import('./approvalDecodeTx')).decodeTransaction(params, symbol, chain)
    case 'solana_signMessage': {
      const p = (request.params ?? {}) as { message?: unknown; text?: unknown }
      const text = typeof p.text === 'string' && printable.test(p.text) ? p.text : String(p.message ?? '')
      return { title: 'approve.signMessage', rows: [{ label: 'approve.message', value: text, testId: 'latch-approve-message' }, chain], warnings: [] }
    }
    case 'solana_signTransaction':
    case 'solana_signAndSendTransaction':
      return (await import('./approvalDecodeSolana')).decodeSolanaTransaction(request, chain)
  }
}
