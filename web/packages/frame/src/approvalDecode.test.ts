import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import type { ShownRequest } from './approval'
import { decodeApproval, formatUnits } from './approvalDecode'

const FROM = '0x' + '11'.repeat(20)
const TOKEN = '0x' + 'ab'.repeat(20)
const SPENDER = '0x' + '12'.repeat(20)
const req = (method: ShownRequest['method'], params: unknown, chainId: string | number = 1): ShownRequest => ({
  requestId: 'r',
  method,
  params,
  chainNamespace: method.startsWith('solana_') ? 'solana' : 'eip155',
  chainId,
})
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0')
const row = (d: Awaited<ReturnType<typeof decodeApproval>>, testId: string) => d.rows.find((r) => r.testId === testId)?.value

describe('decodeApproval', () => {
  it('personal_sign: hex that is text shows as text, other bytes as hex', async () => {
    expect(row(await decodeApproval(req('personal_sign', ['0x68656c6c6f', FROM])), 'latch-approve-message')).toBe('hello')
    expect(row(await decodeApproval(req('personal_sign', ['0xff00', FROM])), 'latch-approve-message')).toBe('0xff00')
  })

  it('typed data: domain and primary type; an unlimited permit and a domain of another chain are called out', async () => {
    const permit = {
      primaryType: 'Permit',
      domain: { name: 'USD Coin', version: '2', chainId: 10, verifyingContract: TOKEN },
      message: { owner: FROM, spender: SPENDER, value: (2n ** 256n - 1n).toString(), nonce: 0, deadline: 1 },
    }
    const d = await decodeApproval(req('eth_signTypedData_v4', [FROM, JSON.stringify(permit)], 1))
    expect(row(d, 'latch-approve-typed')).toBe('Permit')
    expect(row(d, 'latch-approve-domain')).toBe('USD Coin v2')
    expect(row(d, 'latch-approve-spender')).toBe(SPENDER)
    expect(d.warnings.map((w) => w.key)).toEqual(['approve.unlimited', 'approve.otherChain'])
    expect(d.warnings[1]!.params).toEqual({ chain: 'OP Mainnet' })
  })

  it('transactions: a native transfer, an ERC-20 transfer, an unlimited approve, setApprovalForAll, another call', async () => {
    const tx = async (to: string, data?: string, value = '0x0') => decodeApproval(req('eth_sendTransaction', [{ from: FROM, to, value, ...(data ? { data } : {}), gas: '0x5208', maxFeePerGas: '0x3b9aca00' }]))
    const native = await tx(SPENDER, undefined, '0x2386f26fc10000')
    expect([row(native, 'latch-approve-recipient'), row(native, 'latch-approve-amount'), row(native, 'latch-approve-token')]).toEqual([SPENDER, '0.01', 'ETH'])
    expect(row(native, 'latch-approve-fee')).toBe('≤ 0.000021 ETH')
    const transfer = await tx(TOKEN, `0xa9059cbb${word(SPENDER)}${word('0x64')}`)
    expect([row(transfer, 'latch-approve-recipient'), row(transfer, 'latch-approve-amount'), row(transfer, 'latch-approve-token')]).toEqual([SPENDER, '100', TOKEN])
    expect(transfer.warnings).toEqual([])
    const approve = await tx(TOKEN, `0x095ea7b3${word(SPENDER)}${'f'.repeat(64)}`)
    expect(row(approve, 'latch-approve-allowance')).toBe('∞')
    expect(approve.warnings).toEqual([{ key: 'approve.unlimited', params: { spender: SPENDER, token: TOKEN } }])
    const limited = await tx(TOKEN, `0x095ea7b3${word(SPENDER)}${word('0x64')}`)
    expect([row(limited, 'latch-approve-allowance'), limited.warnings.length]).toEqual(['100', 0])
    const all = await tx(TOKEN, `0xa22cb465${word(SPENDER)}${word('0x1')}`)
    expect(all.warnings[0]?.key).toBe('approve.allTokens')
    const other = await tx(TOKEN, '0xdeadbeef00')
    expect(row(other, 'latch-approve-function')).toBe('0xdeadbeef')
    expect(other.raw).toBe('0xdeadbeef00')
  })

  it("a user operation: the smart account, its call, the app's sponsorship", async () => {
    const d = await decodeApproval(req('eth_sendTransaction', [{ from: FROM, to: SPENDER, value: '0x2386f26fc10000', gas: '0x1', maxFeePerGas: '0x1', chainId: '0x1', sponsored: true }]))
    expect(d.title).toBe('approve.sendUserOperation')
    expect(d.items?.lines).toEqual([`0.01 ETH → ${SPENDER}`])
    expect(d.rows.find((r) => r.testId === 'latch-approve-fee')?.valueKey).toBe('approve.feeSponsored')
  })

  it('Solana: a System transfer in SOL; bytes that are no transaction are said to be unreadable', async () => {
    const from = new Uint8Array(32).fill(7)
    const to = new Uint8Array(32).fill(9)
    const lamports = new Uint8Array(8)
    new DataView(lamports.buffer).setBigUint64(0, 100_000_000n, true)
    const message = Uint8Array.from([1, 0, 1, 3, ...from, ...to, ...new Uint8Array(32), ...new Uint8Array(32).fill(1), 1, 2, 2, 0, 1, 12, 2, 0, 0, 0, ...lamports])
    const wire = Uint8Array.from([1, ...new Uint8Array(64), ...message])
    const d = await decodeApproval(req('solana_signAndSendTransaction', { transaction: base64.encode(wire) }, 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'))
    expect(d.items?.lines).toEqual([`System: transfer 0.1 SOL ${base58.encode(from)} → ${base58.encode(to)}`])
    expect(row(d, 'latch-approve-network')).toBe('Solana Devnet')
    const bad = await decodeApproval(req('solana_signTransaction', { transaction: base64.encode(Uint8Array.from([1, 2, 3])) }))
    expect(bad.warnings).toEqual([{ key: 'approve.undecoded' }])
  })

  it('formatUnits', () => {
    expect([formatUnits(0n, 18), formatUnits(10n ** 16n, 18), formatUnits(123456789n, 9), formatUnits(5n, 0)]).toEqual(['0', '0.01', '0.123456789', '5'])
  })
})
