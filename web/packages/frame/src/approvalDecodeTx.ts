// A transaction's part of the approval view's decoding (approvalDecode.ts
// loads it for eth_sendTransaction only): the call (a native transfer, an
// ERC-20 transfer / transferFrom / approve / increaseAllowance,
// setApprovalForAll, or another contract's function), the fee cap, and a
// smart account's user operation (its calls, who pays the gas).
import { bigOf, formatUnits, UNLIMITED, type ApprovalRow, type ApprovalWarning, type DecodedApproval } from './approvalDecode'

/** The English strings only a transaction shows (approvalStrings.ts has the rest; translations are in approvalLocales/). */
export const txStrings = {
  'approve.sendTransaction': 'Send this transaction?',
  'approve.sendUserOperation': 'Send this transaction from your smart account?',
  'approve.function': 'Function',
  'approve.recipient': 'Recipient',
  'approve.from': 'From',
  'approve.smartAccount': 'Smart account',
  'approve.amount': 'Amount',
  'approve.value': 'Value',
  'approve.token': 'Token',
  'approve.collection': 'Collection',
  'approve.allowance': 'Allowance',
  'approve.fee': 'Network fee',
  'approve.feeSponsored': 'Paid by the app',
  'approve.calls': 'Calls',
  'approve.allTokens': '{spender} may move every token of the collection {token} you hold',
} as const

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

/** decodeTransaction is what the view shows of eth_sendTransaction's filled-in transaction (or a user operation's call). */
export function decodeTransaction(params: unknown[], symbol: string, chain: ApprovalRow): DecodedApproval {
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
    english: txStrings,
    ...(tx.data && tx.data !== '0x' && call.rows.some((r) => r.label === 'approve.function') ? { raw: tx.data } : {}),
  }
}
