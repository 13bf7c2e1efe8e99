import { hexToBytes } from '@noble/hashes/utils.js'
import { parseTransaction, recoverMessageAddress, recoverTransactionAddress, recoverTypedDataAddress, type TransactionSerializedEIP1559 } from 'viem'
import { describe, expect, it } from 'vitest'
import { InvalidParamsError, personalSign } from './evm'
import { buildTransaction, sendTransaction } from './evmTransaction'
import { signTypedDataV4 } from './evmTypedData'

// Account 0 of the test mnemonic.
const KEY = hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const ADDR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const typedData = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'to', type: 'address' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Latch', chainId: 1 },
  message: { to: OTHER, contents: 'hello' },
}

describe('personalSign', () => {
  it('signs hex as bytes and text as UTF-8, recoverable to the wallet address', async () => {
    const sig = await personalSign(KEY, ['0x68656c6c6f', ADDR])
    expect(await recoverMessageAddress({ message: 'hello', signature: sig })).toBe(ADDR)
    const sig2 = await personalSign(KEY, ['hello', ADDR.toLowerCase()])
    expect(sig2).toBe(sig)
  })

  it("refuses another address and malformed params", async () => {
    await expect(personalSign(KEY, ['0x00', OTHER])).rejects.toThrow(InvalidParamsError)
    await expect(personalSign(KEY, ['0x00'])).rejects.toThrow('Invalid params for personal_sign')
    await expect(personalSign(KEY, { message: 'x' })).rejects.toThrow('Invalid params for personal_sign')
  })
})

describe('signTypedDataV4', () => {
  it('signs JSON text and objects alike, recoverable to the wallet address', async () => {
    const sig = await signTypedDataV4(KEY, [ADDR, JSON.stringify(typedData)])
    const { EIP712Domain: _, ...types } = typedData.types
    expect(await recoverTypedDataAddress({ ...typedData, types, primaryType: 'Mail', signature: sig } as Parameters<typeof recoverTypedDataAddress>[0])).toBe(ADDR)
    expect(await signTypedDataV4(KEY, [ADDR, typedData])).toBe(sig)
  })

  it('refuses typed data that is not JSON or does not match its types', async () => {
    await expect(signTypedDataV4(KEY, [ADDR, '{not json'])).rejects.toThrow('not JSON')
    await expect(signTypedDataV4(KEY, [ADDR, { ...typedData, message: { to: 'nope', contents: 1 } }])).rejects.toThrow()
  })
})

describe('buildTransaction and sendTransaction', () => {
  it('fills nonce, gas and EIP-1559 fees (base fee × 1.2 + tip), signs and sends', async () => {
    const calls: [string, unknown[]][] = []
    const call = async (method: string, params: unknown[]): Promise<unknown> => {
      calls.push([method, params])
      switch (method) {
        case 'eth_getTransactionCount':
          return '0x7'
        case 'eth_estimateGas':
          return '0x5208'
        case 'eth_maxPriorityFeePerGas':
          return '0x3b9aca00' // 1 gwei
        case 'eth_getBlockByNumber':
          return { baseFeePerGas: '0x2540be400' } // 10 gwei
        case 'eth_sendRawTransaction':
          return '0x' + 'ab'.repeat(32)
      }
      throw new Error(`unexpected ${method}`)
    }
    const tx = await buildTransaction([{ from: ADDR, to: OTHER, value: '0x2386f26fc10000' }], 31337, call)
    expect(tx).toMatchObject({ type: 'eip1559', chainId: 31337, nonce: 7, gas: 21000n, maxPriorityFeePerGas: 1_000_000_000n, maxFeePerGas: 13_000_000_000n, value: 10n ** 16n })
    const hash = await sendTransaction(KEY, tx, call)
    expect(hash).toBe('0x' + 'ab'.repeat(32))
    const raw = calls.find(([m]) => m === 'eth_sendRawTransaction')![1][0] as TransactionSerializedEIP1559
    const parsed = parseTransaction(raw)
    expect(parsed).toMatchObject({ type: 'eip1559', chainId: 31337, nonce: 7, to: OTHER.toLowerCase(), value: 10n ** 16n, gas: 21000n })
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(ADDR)
  })

  it('keeps what the request gives and asks the node for nothing it has', async () => {
    const call = async (method: string): Promise<unknown> => {
      throw new Error(`unexpected ${method}`)
    }
    const tx = await buildTransaction([{ from: ADDR, to: OTHER, nonce: '0x1', gas: '0x5208', maxFeePerGas: '0x10', maxPriorityFeePerGas: '0x1', data: '0x' }], 1, call)
    expect(tx).toMatchObject({ nonce: 1, gas: 21000n, maxFeePerGas: 16n, maxPriorityFeePerGas: 1n })
  })

  it('refuses gasPrice with EIP-1559 fees, a foreign from, and bad params', async () => {
    const call = async () => '0x1'
    await expect(buildTransaction([{ from: ADDR, gasPrice: '0x1', maxFeePerGas: '0x1' }], 1, call)).rejects.toThrow('Cannot specify both gasPrice and maxFeePerGas/maxPriorityFeePerGas')
    await expect(buildTransaction([{ from: 'nope' }], 1, call)).rejects.toThrow('Invalid params for eth_sendTransaction')
    const tx = await buildTransaction([{ from: OTHER, to: ADDR, nonce: 0, gas: 1, maxFeePerGas: 1, maxPriorityFeePerGas: 1 }], 1, call)
    await expect(sendTransaction(KEY, tx, call as never)).rejects.toThrow('is not this wallet')
  })
})
