// What the frame's approval view shows of a request, decoded from what is
// about to be signed (the parameters after the frame filled them in): a
// message as text, typed data's domain and primary type, a transaction's
// chain, recipient, amount and fee, ERC-20 transfers and approvals (an
// unlimited approval called out), a user operation's calls, and a Solana
// transaction's instructions. No DOM and no curve code: part of the view's
// script, and tested on its own.
import { base58, base64 } from '@scure/base'
import type { ShownRequest } from './approval'
import type { ApprovalStringKey } from './approvalStrings'

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
}

/** 2^256 − 1: an ERC-20 approval of this (or anything at least 2^255) is an unlimited one. */
const UNLIMITED = 1n << 255n

/** Known chains' names and native currencies; others show their id and "ETH" as the unit of value and fees. */
const CHAINS: Record<number, [string, string]> = {
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

/** The Solana programs the view names. */
const PROGRAMS: Record<string, string> = {
  '11111111111111111111111111111111': 'System',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Token',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Token-2022',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account',
  ComputeBudget111111111111111111111111111111: 'Compute Budget',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo',
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

const bigOf = (q: unknown): bigint | undefined => {
  try {
    return typeof q === 'string' || typeof q === 'number' || typeof q === 'bigint' ? BigInt(q) : undefined
  } catch {
    return undefined
  }
}

const printable = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/

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

/** A decoded call: its meaning in the view's words, and the rows it adds. */
interface DecodedCall {
  readonly rows: ApprovalRow[]
  readonly warnings: ApprovalWarning[]
  readonly line: string
}

const word = (data: string, i: number) => data.slice(10 + 64 * i, 10 + 64 * (i + 1))
const addressIn = (w: string) => (/^0{24}/.test(w) ? `0x${w.slice(24)}` : undefined)

/**
 * decodeCall reads a call from `to` with `value` and `data`: a plain
 * transfer of the native currency, an ERC-20 transfer / transferFrom /
 * approve / increaseAllowance, setApprovalForAll, or another contract call
 * (its selector; the data is shown raw).
 */
function decodeCall(to: string | undefined, value: bigint, data: string | undefined, symbol: string): DecodedCall {
  const native: ApprovalRow[] = value > 0n || !data ? [{ label: 'approve.amount', value: formatUnits(value, 18), testId: 'latch-approve-amount' }, { label: 'approve.token', value: symbol, testId: 'latch-approve-token' }] : []
  if (!data || data === '0x') {
    return {
      rows: [{ label: 'approve.recipient', value: to ?? '—', testId: 'latch-approve-recipient', mono: true }, ...native],
      warnings: [],
      line: `${formatUnits(value, 18)} ${symbol} → ${to ?? '—'}`,
    }
  }
  const selector = data.slice(0, 10).toLowerCase()
  const words = (data.length - 10) / 64
  const contract: ApprovalRow = { label: 'approve.token', value: to ?? '—', testId: 'latch-approve-token', mono: true }
  if (selector === '0xa9059cbb' && words === 2) {
    const recipient = addressIn(word(data, 0))
    const amount = BigInt(`0x${word(data, 1)}`)
    if (recipient) {
      return {
        rows: [
          { label: 'approve.recipient', value: recipient, testId: 'latch-approve-recipient', mono: true },
          { label: 'approve.amount', value: amount.toString(), testId: 'latch-approve-amount' },
          contract,
          ...(value > 0n ? [{ label: 'approve.value', value: `${formatUnits(value, 18)} ${symbol}`, testId: 'latch-approve-value' } as const] : []),
        ],
        warnings: [],
        line: `transfer ${amount} → ${recipient} (${to})`,
      }
    }
  }
  if (selector === '0x23b872dd' && words === 3) {
    const from = addressIn(word(data, 0))
    const recipient = addressIn(word(data, 1))
    const amount = BigInt(`0x${word(data, 2)}`)
    if (from && recipient) {
      return {
        rows: [
          { label: 'approve.from', value: from, testId: 'latch-approve-transfer-from', mono: true },
          { label: 'approve.recipient', value: recipient, testId: 'latch-approve-recipient', mono: true },
          { label: 'approve.amount', value: amount.toString(), testId: 'latch-approve-amount' },
          contract,
        ],
        warnings: [],
        line: `transferFrom ${from} ${amount} → ${recipient} (${to})`,
      }
    }
  }
  if ((selector === '0x095ea7b3' || selector === '0x39509351') && words === 2) {
    const spender = addressIn(word(data, 0))
    const amount = BigInt(`0x${word(data, 1)}`)
    if (spender) {
      const unlimited = amount >= UNLIMITED
      return {
        rows: [
          { label: 'approve.spender', value: spender, testId: 'latch-approve-spender', mono: true },
          { label: 'approve.allowance', value: unlimited ? '∞' : amount.toString(), testId: 'latch-approve-allowance' },
          contract,
        ],
        warnings: unlimited ? [{ key: 'approve.unlimited', params: { spender, token: to ?? '—' } }] : [],
        line: `approve ${spender} ${unlimited ? '∞' : amount} (${to})`,
      }
    }
  }
  if (selector === '0xa22cb465' && words === 2) {
    const operator = addressIn(word(data, 0))
    const approved = BigInt(`0x${word(data, 1)}`) !== 0n
    if (operator) {
      return {
        rows: [
          { label: 'approve.spender', value: operator, testId: 'latch-approve-spender', mono: true },
          { label: 'approve.allowance', value: approved ? '∞' : '0', testId: 'latch-approve-allowance' },
          { label: 'approve.collection', value: to ?? '—', testId: 'latch-approve-token', mono: true },
        ],
        warnings: approved ? [{ key: 'approve.allTokens', params: { spender: operator, token: to ?? '—' } }] : [],
        line: `setApprovalForAll ${operator} ${approved} (${to})`,
      }
    }
  }
  return {
    rows: [
      { label: 'approve.contract', value: to ?? '—', testId: 'latch-approve-recipient', mono: true },
      { label: 'approve.function', value: selector, testId: 'latch-approve-function', mono: true },
      ...native,
    ],
    warnings: [],
    line: `${selector}… → ${to ?? '—'}${value > 0n ? ` + ${formatUnits(value, 18)} ${symbol}` : ''}`,
  }
}

interface ShownTx {
  from?: string
  to?: string | null
  value?: string
  data?: string
  gas?: string
  maxFeePerGas?: string
  sponsored?: boolean
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

/** Solana: a transaction's instructions, one line each (a System transfer in SOL, a token transfer in base units). */
function solanaInstructions(b64: unknown): { lines: string[]; error?: true } {
  let wire: Uint8Array
  try {
    if (typeof b64 !== 'string') throw new Error('no transaction')
    wire = base64.decode(b64)
  } catch {
    return { lines: [], error: true }
  }
  let at = 0
  const u8 = () => {
    const v = wire[at++]
    if (v === undefined) throw new Error('truncated')
    return v
  }
  const shortvec = () => {
    let v = 0
    for (let i = 0; i < 3; i++) {
      const b = u8()
      v |= (b & 0x7f) << (7 * i)
      if ((b & 0x80) === 0) return v
    }
    throw new Error('bad length')
  }
  const bytes = (n: number) => {
    if (at + n > wire.length) throw new Error('truncated')
    const out = wire.subarray(at, at + n)
    at += n
    return out
  }
  try {
    const sigs = shortvec()
    bytes(sigs * 64)
    const versioned = (wire[at]! & 0x80) !== 0
    if (versioned) u8()
    bytes(3)
    const keys = Array.from({ length: shortvec() }, () => base58.encode(bytes(32)))
    bytes(32) // recent blockhash
    const count = shortvec()
    const lines: string[] = []
    const key = (i: number) => keys[i] ?? `(lookup table account ${i - keys.length})`
    for (let i = 0; i < count; i++) {
      const program = key(u8())
      const accounts = Array.from({ length: shortvec() }, () => u8())
      const data = bytes(shortvec())
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength)
      const name = PROGRAMS[program] ?? program
      if (name === 'System' && data.length === 12 && dv.getUint32(0, true) === 2) {
        lines.push(`System: transfer ${formatUnits(dv.getBigUint64(4, true), 9)} SOL ${key(accounts[0] ?? -1)} → ${key(accounts[1] ?? -1)}`)
      } else if ((name === 'Token' || name === 'Token-2022') && data.length === 9 && data[0] === 3) {
        lines.push(`${name}: transfer ${dv.getBigUint64(1, true)} → ${key(accounts[1] ?? -1)}`)
      } else if ((name === 'Token' || name === 'Token-2022') && data.length === 10 && data[0] === 12) {
        lines.push(`${name}: transfer ${formatUnits(dv.getBigUint64(1, true), data[9]!)} (mint ${key(accounts[1] ?? -1)}) → ${key(accounts[2] ?? -1)}`)
      } else if ((name === 'Token' || name === 'Token-2022') && data.length === 9 && data[0] === 4) {
        const amount = dv.getBigUint64(1, true)
        lines.push(`${name}: approve ${key(accounts[1] ?? -1)} ${amount === 0xffffffffffffffffn ? '∞' : amount}`)
      } else {
        lines.push(`${name}: ${data.length} bytes, ${accounts.length} accounts`)
      }
    }
    return { lines }
  } catch {
    return { lines: [], error: true }
  }
}

/** decodeApproval is what the view shows of request. */
export function decodeApproval(request: ShownRequest): DecodedApproval {
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
    case 'eth_sendTransaction': {
      const tx = (params[0] ?? {}) as ShownTx
      const value = bigOf(tx.value) ?? 0n
      const call = decodeCall(tx.to ?? undefined, value, tx.data, symbol)
      const gas = bigOf(tx.gas)
      const fee = bigOf(tx.maxFeePerGas)
      const feeRow: ApprovalRow = {
        label: 'approve.fee',
        ...(tx.sponsored === true ? { valueKey: 'approve.feeSponsored' as const } : {}),
        value: tx.sponsored === true ? '' : gas !== undefined && fee !== undefined ? `≤ ${formatUnits(gas * fee, 18)} ${symbol}` : '—',
        testId: 'latch-approve-fee',
      }
      // A smart account's user operation is marked sponsored (true or false) by smartAccountOps.prepareOperation.
      const userOp = typeof tx.sponsored === 'boolean'
      const from: ApprovalRow[] = tx.from ? [{ label: userOp ? 'approve.smartAccount' : 'approve.from', value: tx.from, testId: 'latch-approve-from', mono: true }] : []
      return {
        title: userOp ? 'approve.sendUserOperation' : 'approve.sendTransaction',
        rows: [...call.rows, feeRow, ...from, chain],
        warnings: call.warnings,
        ...(userOp ? { items: { label: 'approve.calls', testId: 'latch-approve-calls', lines: [call.line] } } : {}),
        ...(tx.data && tx.data !== '0x' && call.rows.some((r) => r.label === 'approve.function') ? { raw: tx.data } : {}),
      }
    }
    case 'solana_signMessage': {
      const p = (request.params ?? {}) as { message?: unknown; text?: unknown }
      const text = typeof p.text === 'string' && printable.test(p.text) ? p.text : String(p.message ?? '')
      return { title: 'approve.signMessage', rows: [{ label: 'approve.message', value: text, testId: 'latch-approve-message' }, chain], warnings: [] }
    }
    case 'solana_signTransaction':
    case 'solana_signAndSendTransaction': {
      const { transaction } = (request.params ?? {}) as { transaction?: unknown }
      const { lines, error } = solanaInstructions(transaction)
      return {
        title: request.method === 'solana_signTransaction' ? 'approve.signTransaction' : 'approve.sendTransaction',
        rows: [chain],
        warnings: error ? [{ key: 'approve.undecoded' }] : [],
        items: { label: 'approve.instructions', testId: 'latch-approve-instructions', lines },
        ...(error ? { raw: String(transaction) } : {}),
      }
    }
  }
}
