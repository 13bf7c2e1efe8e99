// A Solana transaction's part of the approval view's decoding
// (approvalDecode.ts loads it for solana_signTransaction and
// solana_signAndSendTransaction only): its instructions, a System or token
// transfer in words, other programs by name.
import { base58, base64 } from '@scure/base'
import type { ShownRequest } from './approval'
import { formatUnits, type ApprovalRow, type DecodedApproval } from './approvalDecode'

/** The English strings only a Solana transaction shows. */
export const solanaStrings = {
  'approve.sendTransaction': 'Send this transaction?',
  'approve.signTransaction': 'Sign this transaction?',
  'approve.instructions': 'Instructions',
  'approve.undecoded': 'The wallet cannot read this transaction: approve only if you trust the app',
} as const

/** The Solana programs the view names. */
const PROGRAMS: Record<string, string> = {
  '11111111111111111111111111111111': 'System',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Token',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Token-2022',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account',
  ComputeBudget111111111111111111111111111111: 'Compute Budget',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo',
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

/** decodeSolanaTransaction is what the view shows of a Solana transaction to sign (and send). */
export function decodeSolanaTransaction(request: ShownRequest, chain: ApprovalRow): DecodedApproval {
  const { transaction } = (request.params ?? {}) as { transaction?: unknown }
  const { lines, error } = solanaInstructions(transaction)
  return {
    title: request.method === 'solana_signTransaction' ? 'approve.signTransaction' : 'approve.sendTransaction',
    rows: [chain],
    warnings: error ? [{ key: 'approve.undecoded' }] : [],
    items: { label: 'approve.instructions', testId: 'latch-approve-instructions', lines },
    english: solanaStrings,
    ...(error ? { raw: String(transaction) } : {}),
  }
}
