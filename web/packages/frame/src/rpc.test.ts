import { hexToBytes } from '@noble/hashes/utils.js'
import { parseTransaction, recoverTransactionAddress, recoverTypedDataAddress, type Hex, type TransactionSerializedEIP1559 } from 'viem'
import { describe, expect, it } from 'vitest'
import { createRpcHandler } from './rpc'
import type { WalletKeys } from './keys'

// Account 0 of the test mnemonic; the Solana key is unused here.
const KEY = hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const ADDR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

// A handler whose wallet holds KEY, whose chain answers like a dev node and
// whose page approves everything it is asked; it records what it shows.
function handler() {
  const shown: unknown[] = []
  const sent: unknown[] = []
  const chain: Record<string, unknown> = {
    eth_getTransactionCount: '0x5',
    eth_estimateGas: '0x5208',
    eth_maxPriorityFeePerGas: '0x3b9aca00',
    eth_getBlockByNumber: { baseFeePerGas: '0x3b9aca00' },
  }
  const handle = createRpcHandler({
    wallet: {
      addresses: async () => ({ evm: ADDR, solana: '' }),
      withKeys: async <T>(fn: (k: WalletKeys) => Promise<T> | T) => fn({ evm: new Uint8Array(KEY), solana: new Uint8Array(32) }),
    },
    api: {
      rpc: async (_network: string, method: string, params: unknown) => {
        if (method === 'eth_sendRawTransaction') {
          sent.push((params as unknown[])[0])
          return '0xhash'
        }
        return chain[method]
      },
    },
    chainId: () => 31337,
    approve: async (request) => {
      shown.push(request.params)
      return true
    },
  })
  return { handle, shown, sent }
}

// The EIP-712 and transaction code are scripts the handler loads on first
// use (evmTypedData.ts, evmTransaction.ts): through the handler they sign.
describe('createRpcHandler: the lazily loaded signers', () => {
  it('eth_signTypedData_v4', async () => {
    const { handle } = handler()
    const typed = {
      types: { Mail: [{ name: 'to', type: 'address' }, { name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Latch', chainId: 31337 },
      message: { to: OTHER, contents: 'hello' },
    }
    const sig = (await handle('r1', { method: 'eth_signTypedData_v4', params: [ADDR, JSON.stringify(typed)], chainNamespace: 'eip155', chainId: 31337 })) as Hex
    expect(await recoverTypedDataAddress({ ...typed, signature: sig } as Parameters<typeof recoverTypedDataAddress>[0])).toBe(ADDR)
  })

  it('eth_sendTransaction: the visitor is shown the filled transaction, which is signed and sent', async () => {
    // max fee = base fee 1 gwei × 1.2 + tip 1 gwei = 2.2 gwei (0x83215600).
    const { handle, shown, sent } = handler()
    const hash = await handle('r2', { method: 'eth_sendTransaction', params: [{ from: ADDR, to: OTHER, value: '0x2386f26fc10000' }], chainNamespace: 'eip155', chainId: 31337 })
    expect(hash).toBe('0xhash')
    expect(shown).toEqual([[{ from: ADDR, to: OTHER, value: '0x2386f26fc10000', gas: '0x5208', nonce: '0x5', maxFeePerGas: '0x83215600', maxPriorityFeePerGas: '0x3b9aca00', chainId: '0x7a69' }]])
    const raw = sent[0] as TransactionSerializedEIP1559
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(ADDR)
    expect(parseTransaction(raw)).toMatchObject({ chainId: 31337, nonce: 5, to: OTHER.toLowerCase(), value: 10n ** 16n })
  })
})
