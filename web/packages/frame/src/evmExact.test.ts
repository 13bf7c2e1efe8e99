// The frame signs EVM data with its own small code on @noble (evm.ts,
// evmTransaction.ts, smartAccountOps.ts) where it used viem before: these
// tests hold it to viem's bytes, on fixed and on many generated inputs, so
// that the same key gives the same addresses and signatures as before.
import { hexToBytes } from '@noble/hashes/utils.js'
import { encodeFunctionData, getAddress, hashMessage as viemHashMessage, isAddress, parseAbi, serializeErc6492Signature, toFunctionSelector, toHex as viemToHex, type Hex } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { privateKeyToAddress, signMessage, signTransaction } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { checksumAddress, evmAddress, hashMessage, isStrictAddress, personalSign, toHex } from './evm'
import { serializeTransaction, type Eip1559Transaction } from './evmTransaction'
import { prepareOperation, userOperationHash, wrapForUndeployed, type RpcUserOperation, type SmartAccountRef } from './smartAccountOps'

// A small deterministic generator (xorshift32), so a failure is reproducible.
function rng(seed: number) {
  let x = seed >>> 0 || 1
  const next = () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
  const int = (n: number) => Math.floor(next() * n)
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256))
  const hex = (n: number): Hex => viemToHex(bytes(n))
  const big = (maxBytes: number) => (int(4) === 0 ? 0n : BigInt(hex(1 + int(maxBytes))))
  return { next, int, bytes, hex, big }
}

const key = (r: ReturnType<typeof rng>) => {
  for (;;) {
    const k = r.bytes(32)
    if (k.some((b) => b !== 0) && k[0]! < 0xff) return k
  }
}

describe('EVM code against viem', () => {
  it('addresses and EIP-55 checksums', () => {
    const r = rng(1)
    for (let i = 0; i < 100; i++) {
      const k = key(r)
      expect(evmAddress(k)).toBe(privateKeyToAddress(toHex(k)))
      const a = r.hex(20)
      expect(checksumAddress(a)).toBe(getAddress(a))
      const mixed = getAddress(a)
      expect(isStrictAddress(mixed)).toBe(true)
      expect(isStrictAddress(a)).toBe(isAddress(a))
      const broken = (mixed.slice(0, 2) + [...mixed.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('')) as Hex
      expect(isStrictAddress(broken)).toBe(isAddress(broken))
    }
  })

  it('personal_sign: text, bytes, empty, and odd-length hex', async () => {
    const r = rng(2)
    const messages = ['', 'hello', 'héllo ✓ 🦊', '0x', '0x0', '0x123', '0xABCDEF', '0xzz', 'x'.repeat(300)]
    for (let i = 0; i < 40; i++) messages.push(r.hex(r.int(100)), r.hex(r.int(50)).slice(0, -1))
    const k = key(r)
    const address = privateKeyToAddress(toHex(k))
    for (const m of messages) {
      const viemMessage = /^0x[0-9a-fA-F]*$/.test(m) ? { raw: m as Hex } : m
      expect(toHex(hashMessage(m)), m).toBe(viemHashMessage(viemMessage))
      expect(await personalSign(k, [m, address]), m).toBe(await signMessage({ message: viemMessage, privateKey: toHex(k) }))
    }
  })

  it('EIP-1559 transactions, unsigned and signed', async () => {
    const r = rng(3)
    const k = key(r)
    const from = privateKeyToAddress(toHex(k))
    for (let i = 0; i < 200; i++) {
      const maxFeePerGas = r.big(32)
      const tx: Eip1559Transaction = {
        type: 'eip1559',
        from,
        to: r.int(5) === 0 ? null : r.int(2) ? getAddress(r.hex(20)) : r.hex(20),
        value: r.big(32),
        ...(r.int(3) ? { data: r.int(8) === 0 ? (r.hex(r.int(40)).slice(0, -1) as Hex) : r.hex(r.int(120)) } : {}),
        chainId: 1 + r.int(2 ** 31 - 2),
        nonce: r.int(3) === 0 ? 0 : r.int(2 ** 40),
        gas: r.big(8),
        maxFeePerGas,
        maxPriorityFeePerGas: maxFeePerGas === 0n ? 0n : BigInt(Math.floor(r.next() * 1000)) % (maxFeePerGas + 1n),
      }
      const { from: _, ...viemTx } = tx
      const viemSigned = await signTransaction({ transaction: viemTx, privateKey: toHex(k) })
      const { sendTransaction } = await import('./evmTransaction')
      let sent: unknown
      await sendTransaction(k, tx, async (_m, p) => {
        sent = p[0]
        return '0x'
      })
      expect(sent, JSON.stringify(tx, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(viemSigned)
    }
    // Long data: RLP's long-string and long-list forms.
    const long: Eip1559Transaction = { type: 'eip1559', from, to: null, value: 0n, data: r.hex(70_000), chainId: 1, nonce: 0, gas: 1n, maxFeePerGas: 1n, maxPriorityFeePerGas: 0n }
    const { from: _, ...viemLong } = long
    const { sendTransaction } = await import('./evmTransaction')
    let sent: unknown
    await sendTransaction(k, long, async (_m, p) => ((sent = p[0]), '0x'))
    expect(sent).toBe(await signTransaction({ transaction: viemLong, privateKey: toHex(k) }))
  })

  it('refuses what viem refuses: a bad checksum, a fee cap over 2^256-1, an unsafe nonce', () => {
    const base: Eip1559Transaction = { type: 'eip1559', from: '0x0000000000000000000000000000000000000001', to: null, value: 0n, chainId: 1, nonce: 0, gas: 1n, maxFeePerGas: 1n, maxPriorityFeePerGas: 0n }
    const good = getAddress('0x52908400098527886e0f7030069857d2e4169ee7')
    const i = [...good].findIndex((c, j) => j > 1 && /[a-fA-F]/.test(c))
    const bad = (good.slice(0, i) + (good[i] === good[i]!.toUpperCase() ? good[i]!.toLowerCase() : good[i]!.toUpperCase()) + good.slice(i + 1)) as Hex
    expect(isAddress(bad)).toBe(false)
    expect(() => serializeTransaction({ ...base, to: good })).not.toThrow()
    expect(() => serializeTransaction({ ...base, to: bad })).toThrow('is invalid')
    expect(() => serializeTransaction({ ...base, maxFeePerGas: 2n ** 256n })).toThrow('fee cap')
    expect(() => serializeTransaction({ ...base, nonce: 2 ** 60 })).toThrow('safe integer')
  })

  it('user operation hashes (EntryPoint v0.7), calls and ERC-6492 signatures', () => {
    const r = rng(4)
    expect(toFunctionSelector('function execute(address,uint256,bytes)')).toBe('0xb61d27f6')
    expect(toFunctionSelector('function createAccount(address,uint256)')).toBe('0x5fbfb9cf')
    expect(toFunctionSelector('function getNonce(address,uint192)')).toBe('0x35567e1a')
    const q = (n: bigint): Hex => `0x${n.toString(16)}`
    for (let i = 0; i < 100; i++) {
      const op: RpcUserOperation = {
        sender: getAddress(r.hex(20)),
        nonce: q(r.big(32)),
        callData: r.hex(r.int(200)),
        callGasLimit: q(r.big(16)),
        verificationGasLimit: q(r.big(16)),
        preVerificationGas: q(r.big(32)),
        maxFeePerGas: q(r.big(16)),
        maxPriorityFeePerGas: q(r.big(16)),
        signature: r.hex(65),
      }
      if (r.int(2)) Object.assign(op, { factory: r.hex(20), factoryData: r.hex(r.int(100)) })
      if (r.int(2)) {
        Object.assign(op, { paymaster: r.hex(20), paymasterData: r.hex(r.int(100)) })
        if (r.int(2)) Object.assign(op, { paymasterVerificationGasLimit: q(r.big(16)), paymasterPostOpGasLimit: q(r.big(16)) })
      }
      const entryPoint = getAddress(r.hex(20))
      const chainId = 1 + r.int(2 ** 31 - 2)
      const big = (k: string) => (op[k] ? BigInt(op[k]) : undefined)
      const viemHash = getUserOperationHash({
        chainId,
        entryPointAddress: entryPoint,
        entryPointVersion: '0.7',
        userOperation: {
          sender: op.sender!,
          nonce: BigInt(op.nonce!),
          ...(op.factory ? { factory: op.factory, factoryData: op.factoryData! } : {}),
          callData: op.callData!,
          callGasLimit: big('callGasLimit')!,
          verificationGasLimit: big('verificationGasLimit')!,
          preVerificationGas: big('preVerificationGas')!,
          maxFeePerGas: big('maxFeePerGas')!,
          maxPriorityFeePerGas: big('maxPriorityFeePerGas')!,
          ...(op.paymaster
            ? { paymaster: op.paymaster, paymasterData: op.paymasterData ?? '0x', paymasterVerificationGasLimit: big('paymasterVerificationGasLimit') ?? 0n, paymasterPostOpGasLimit: big('paymasterPostOpGasLimit') ?? 0n }
            : {}),
          signature: op.signature!,
        },
      })
      expect(userOperationHash(op, entryPoint, chainId)).toBe(viemHash)

      const owner = getAddress(r.hex(20))
      const factory = getAddress(r.hex(20))
      const account: SmartAccountRef = { address: op.sender!, owner, deployed: false, network: { chainId, entryPoint, factory } }
      const signature = r.hex(r.int(3) ? 65 : r.int(130))
      const factoryData = encodeFunctionData({ abi: parseAbi(['function createAccount(address owner, uint256 salt) returns (address)']), functionName: 'createAccount', args: [owner, 0n] })
      expect(wrapForUndeployed(account, signature)).toBe(serializeErc6492Signature({ address: factory, data: factoryData, signature }))
      expect(wrapForUndeployed({ ...account, deployed: true }, signature)).toBe(signature)
    }
    expect(() => userOperationHash({ sender: `0x${'1'.repeat(40)}`, nonce: '0x0', callData: '0x', callGasLimit: q(2n ** 128n) }, getAddress(r.hex(20)), 1)).toThrow()
  })

  it("a smart account's calls: execute(to, value, data) and getNonce(sender, 0)", async () => {
    const r = rng(5)
    const abi = parseAbi(['function execute(address dest, uint256 value, bytes data)', 'function getNonce(address sender, uint192 key) view returns (uint256)'])
    for (let i = 0; i < 60; i++) {
      const sender = getAddress(r.hex(20))
      const to = r.int(2) ? getAddress(r.hex(20)) : r.hex(20)
      const value = r.big(32)
      const data = r.int(6) === 0 ? (r.hex(1 + r.int(40)).slice(0, -1) as Hex) : r.hex(r.int(150))
      const calls: [string, unknown[]][] = []
      const call = async (method: string, params: unknown[]): Promise<unknown> => {
        calls.push([method, params])
        if (method === 'eth_call') return '0x5'
        if (method === 'eth_maxPriorityFeePerGas') return '0x1'
        if (method === 'eth_getBlockByNumber') return { baseFeePerGas: '0x10' }
        if (method === 'eth_estimateUserOperationGas') return { preVerificationGas: '0x1', verificationGasLimit: '0x2', callGasLimit: '0x3' }
        throw new Error('no paymaster')
      }
      const account: SmartAccountRef = { address: sender, owner: sender, deployed: true, network: { chainId: 1, entryPoint: getAddress(r.hex(20)) as Hex, factory: getAddress(r.hex(20)) as Hex } }
      const { op } = await prepareOperation(account, [{ from: sender, to, value: `0x${value.toString(16)}`, data }], call)
      expect(op.callData).toBe(encodeFunctionData({ abi, functionName: 'execute', args: [to, value, data] }))
      expect((calls[0]![1][0] as { data: Hex }).data).toBe(encodeFunctionData({ abi, functionName: 'getNonce', args: [sender, 0n] }))
    }
  })
})
