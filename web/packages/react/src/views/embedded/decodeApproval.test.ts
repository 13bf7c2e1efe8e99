import { describe, expect, it } from 'vitest'
import { defineChain, stringToHex } from 'viem'
import { decodeApproval } from './decodeApproval'

const chain = defineChain({ id: 31337, name: 'Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const from = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const to = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const base = { requestId: 'r1', chainNamespace: 'eip155', chainId: 31337 } as const

describe('decodeApproval', () => {
  it('shows a personal_sign message as text, or as hex when it is not text', () => {
    expect(decodeApproval({ ...base, method: 'personal_sign', params: [stringToHex('hello\nworld'), from] }, chain)).toEqual({ kind: 'message', text: 'hello\nworld' })
    expect(decodeApproval({ ...base, method: 'personal_sign', params: ['0x00ff01', from] }, chain)).toEqual({ kind: 'message', text: '0x00ff01' })
  })

  it("shows a solana_signMessage message as the frame's text, or as its base58 when it is not text", () => {
    const sol = { requestId: 'r2', chainNamespace: 'solana', chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' } as const
    const pubkey = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
    expect(decodeApproval({ ...sol, method: 'solana_signMessage', params: { message: 'JxF12TrwUP45BMd', pubkey, text: 'Hello World' } }, undefined)).toEqual({ kind: 'message', text: 'Hello World' })
    expect(decodeApproval({ ...sol, method: 'solana_signMessage', params: { message: 'LUu', pubkey } }, undefined)).toEqual({ kind: 'message', text: 'LUu' })
    expect(decodeApproval({ ...sol, method: 'solana_signMessage', params: { message: '1', pubkey, text: '\u0000' } }, undefined)).toEqual({ kind: 'message', text: '1' })
  })

  it('decodes a native transfer: recipient, amount in ETH, fee inputs', () => {
    const d = decodeApproval({ ...base, method: 'eth_sendTransaction', params: [{ from, to, value: '0x2386f26fc10000', gas: '0x5208', maxFeePerGas: '0x3b9aca00' }] }, chain)
    expect(d).toMatchObject({ kind: 'transaction', to, amount: '0.01', token: 'ETH', baseUnits: false, gas: 21000n, maxFeePerGas: 1_000_000_000n, sponsored: false })
  })

  it("marks a smart account's operation the paymaster pays for as sponsored", () => {
    const d = decodeApproval({ ...base, method: 'eth_sendTransaction', params: [{ from, to, value: '0x1', gas: '0x5208', maxFeePerGas: '0x1', sponsored: true }] }, chain)
    expect(d).toMatchObject({ kind: 'transaction', sponsored: true })
    expect(decodeApproval({ ...base, method: 'eth_sendTransaction', params: [{ from, to, sponsored: 'yes' }] }, chain)).toMatchObject({ sponsored: false })
  })

  it('decodes an ERC-20 transfer to its recipient and base-unit amount, the token being the contract', () => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    const data = `0xa9059cbb000000000000000000000000${to.slice(2).toLowerCase()}${(1_500_000n).toString(16).padStart(64, '0')}` as const
    const d = decodeApproval({ ...base, method: 'eth_sendTransaction', params: [{ from, to: token, data }] }, chain)
    expect(d).toMatchObject({ kind: 'transaction', to, amount: '1500000', token, baseUnits: true })
    // Other call data is not mistaken for a transfer.
    const other = decodeApproval({ ...base, method: 'eth_sendTransaction', params: [{ from, to: token, data: '0xdeadbeef' }] }, chain)
    expect(other).toMatchObject({ kind: 'transaction', to: token, amount: '0', token: 'ETH' })
  })

  it('shows typed data by its primary type and domain', () => {
    const typed = { domain: { name: 'Permit2', verifyingContract: to }, primaryType: 'PermitSingle', types: {}, message: {} }
    const d = decodeApproval({ ...base, method: 'eth_signTypedData_v4', params: [from, JSON.stringify(typed)] }, chain)
    expect(d).toMatchObject({ kind: 'typedData', primaryType: 'PermitSingle', domain: `Permit2 · ${to}` })
  })
})
