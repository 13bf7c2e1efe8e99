import { hexToBytes } from '@noble/hashes/utils.js'
import { parseErc6492Signature, recoverMessageAddress, recoverTypedDataAddress, isErc6492Signature, decodeFunctionData, parseAbi, type Hex } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import type { FrameUser } from '../../core/src/embedded/protocol'
import { createSmartAccounts, readSmartAccountNetworks, SMART_ACCOUNTS_UNSUPPORTED } from './smartAccount'
import { personalSign, prepareOperation, sendOperation, sessionProofMessage, signTypedDataV4, wrapForUndeployed } from './smartAccountOps'

// Account 0 of the test mnemonic as the owner; its smart account at a made-up address.
const KEY = hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SMART = '0x1111111111111111111111111111111111111111'
const TXH = `0x${'ab'.repeat(32)}`
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const NET = { chainId: 31337, entryPoint: '0x00000000000000000000000000000000000000e1', factory: '0x00000000000000000000000000000000000000f1' } as const
const USER: FrameUser = { email: 'a@b.example', address: OWNER, chainId: 'eip155:31337', accounts: [{ address: OWNER, type: 'eoa' }] }

function accounts(opts: { code?: string; factoryFails?: boolean; stored?: unknown } = {}) {
  const calls: Array<[number, string, unknown[]]> = []
  const saved: unknown[] = []
  const sa = createSmartAccounts({
    networks: [NET],
    owner: async () => OWNER,
    load: async () => opts.stored,
    save: async (t) => void saved.push(t),
    call: async (chainId, method, params) => {
      calls.push([chainId, method, params])
      if (method === 'eth_call') {
        if (opts.factoryFails) throw new Error('node down')
        return `0x${'0'.repeat(24)}${SMART.slice(2)}`
      }
      if (method === 'eth_getCode') return opts.code ?? '0x'
      throw new Error(`unexpected ${method}`)
    },
  })
  return { sa, calls, saved }
}

describe('readSmartAccountNetworks', () => {
  it('reads the meta JSON; anything malformed is no network', () => {
    expect(readSmartAccountNetworks(JSON.stringify([NET]))).toEqual([NET])
    expect(readSmartAccountNetworks('[{"chainId":1,"entryPoint":"0x12","factory":"x"}]')).toEqual([])
    expect(readSmartAccountNetworks('not json')).toEqual([])
    expect(readSmartAccountNetworks(undefined)).toEqual([])
  })
})

describe('createSmartAccounts', () => {
  it('asks the factory for getAddress(owner, 0) once and reports deployment from the code', async () => {
    const { sa, calls } = accounts({ code: '0x6080' })
    expect(await sa.init(31337)).toEqual({ address: SMART, isDeployed: true })
    expect(await sa.init(31337)).toEqual({ address: SMART, isDeployed: true })
    const factoryCalls = calls.filter((c) => c[1] === 'eth_call')
    expect(factoryCalls).toHaveLength(1)
    const { to, data } = factoryCalls[0]![2][0] as { to: string; data: Hex }
    expect(to).toBe(NET.factory)
    expect(decodeFunctionData({ abi: parseAbi(['function getAddress(address owner, uint256 salt)']), data }).args).toEqual([OWNER, 0n])
  })

  it('GET_USER: the smart account by default (spec §3), both accounts, the smart one first and active; EOA when preferred', async () => {
    const { sa, saved } = accounts()
    const u = await sa.withAccounts(USER, 31337, undefined)
    expect(u).toMatchObject({ address: SMART, preferredAccountType: 'smartAccount', smartAccountDeployed: false })
    expect(u.accounts.map((a) => a.type)).toEqual(['smartAccount', 'eoa'])
    expect(saved).toEqual([])
    expect((await sa.active(31337)).address).toBe(SMART)
    expect(await sa.withAccounts(USER, 31337, 'eoa')).toMatchObject({ address: OWNER, preferredAccountType: 'eoa', accounts: [{ type: 'eoa' }, { address: SMART, type: 'smartAccount' }] })
    expect(saved).toEqual(['eoa'])
    expect((await sa.active(31337)).address).toBe(OWNER)
  })

  it('keeps the stored preference across a new frame', async () => {
    const { sa } = accounts({ stored: 'eoa' })
    expect(await sa.preferred()).toBe('eoa')
    expect((await sa.withAccounts(USER, 31337, undefined)).address).toBe(OWNER)
  })

  it('falls back to the EOA when the smart account cannot be read, and on chains without a bundler', async () => {
    const broken = accounts({ factoryFails: true, stored: 'smartAccount' })
    expect(await broken.sa.withAccounts(USER, 31337, undefined)).toMatchObject({ address: OWNER, preferredAccountType: 'eoa' })
    expect((await broken.sa.active(31337)).type).toBe('eoa')
    const { sa } = accounts({ stored: 'smartAccount' })
    expect(await sa.withAccounts(USER, 1, undefined)).toMatchObject({ address: OWNER, preferredAccountType: 'eoa' })
  })

  it('SET_PREFERRED_ACCOUNT: refused on a chain without smart accounts, the type unchanged', async () => {
    const { sa, saved } = accounts({ stored: 'eoa' })
    await expect(sa.setPreferred('smartAccount', 1)).rejects.toThrow(SMART_ACCOUNTS_UNSUPPORTED)
    expect(await sa.preferred()).toBe('eoa')
    expect(saved).toEqual([])
    expect(await sa.setPreferred('smartAccount', 31337)).toEqual({ type: 'smartAccount', address: SMART })
    expect(await sa.setPreferred('eoa', 31337)).toEqual({ type: 'eoa', address: OWNER })
    expect(saved).toEqual(['smartAccount', 'eoa'])
    expect(sa.enabledNetworks()).toEqual({ smartAccountEnabledNetworks: [31337] })
  })
})

describe('smartAccountOps', () => {
  const undeployed = { address: SMART, owner: OWNER, network: NET, deployed: false } as const

  it('personal_sign: the owner signs; ERC-6492 wrapped with the factory call before deployment, plain after', async () => {
    const wrapped = await personalSign(KEY, undeployed, ['hello', SMART])
    expect(isErc6492Signature(wrapped)).toBe(true)
    const { address, data, signature } = parseErc6492Signature(wrapped)
    expect(address?.toLowerCase()).toBe(NET.factory)
    expect(decodeFunctionData({ abi: parseAbi(['function createAccount(address owner, uint256 salt)']), data: data! }).args).toEqual([OWNER, 0n])
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(OWNER)
    const plain = await personalSign(KEY, { ...undeployed, deployed: true }, ['hello', SMART])
    expect(isErc6492Signature(plain)).toBe(false)
    expect(plain).toBe(signature)
    expect(wrapForUndeployed({ ...undeployed, deployed: true }, plain)).toBe(plain)
  })

  it('eth_signTypedData_v4: the owner signs the typed data; wrapped before deployment', async () => {
    const typed = {
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'Latch', chainId: 31337 },
      message: { contents: 'hello' },
    } as const
    const wrapped = await signTypedDataV4(KEY, undeployed, [SMART, JSON.stringify(typed)])
    expect(isErc6492Signature(wrapped)).toBe(true)
    const { signature } = parseErc6492Signature(wrapped)
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(OWNER)
    expect(await signTypedDataV4(KEY, { ...undeployed, deployed: true }, [SMART, typed])).toBe(signature)
  })

  it('eth_sendTransaction: a sponsored user operation signed over its hash; the receipt gives the transaction hash', async () => {
    const seen: Array<[string, unknown[]]> = []
    let receipts = 0
    const call = async (method: string, params: unknown[]): Promise<unknown> => {
      seen.push([method, params])
      switch (method) {
        case 'eth_call':
          return `0x${'0'.repeat(63)}0`
        case 'eth_maxPriorityFeePerGas':
          return '0x3b9aca00'
        case 'eth_getBlockByNumber':
          return { baseFeePerGas: '0x3b9aca00' }
        case 'pm_getPaymasterStubData':
          return { paymaster: '0x00000000000000000000000000000000000000aa', paymasterData: '0x00', paymasterVerificationGasLimit: '0x186a0', paymasterPostOpGasLimit: '0xc350', isFinal: false }
        case 'eth_estimateUserOperationGas':
          return { preVerificationGas: '0xc350', verificationGasLimit: '0x493e0', callGasLimit: '0x7530', paymasterVerificationGasLimit: '0x186a0', paymasterPostOpGasLimit: '0xc350' }
        case 'pm_getPaymasterData':
          return { paymaster: '0x00000000000000000000000000000000000000aa', paymasterData: '0xbeef' }
        case 'eth_sendUserOperation':
          return '0xop'
        case 'eth_getUserOperationReceipt':
          return ++receipts < 3 ? null : { success: true, receipt: { transactionHash: TXH } }
      }
      throw new Error(`unexpected ${method}`)
    }
    const prepared = await prepareOperation(undeployed, [{ from: SMART, to: TO, value: '0x2386f26fc10000' }], call)
    expect(prepared.sponsored).toBe(true)
    expect(prepared.op.factory).toBe(NET.factory)
    // 0.01 ETH to TO; total gas = pre + verification + call + paymaster's two; fee cap 1 gwei × 1.2 + 1 gwei.
    expect(prepared.shown).toEqual({ from: SMART, to: TO, value: '0x2386f26fc10000', gas: `0x${(0xc350 + 0x493e0 + 0x7530 + 0x186a0 + 0xc350).toString(16)}`, maxFeePerGas: '0x83215600', chainId: '0x7a69', sponsored: true })
    const hash = await sendOperation(KEY, undeployed, prepared, call, { sleep: async () => undefined, now: () => 0 })
    expect(hash).toBe(TXH)
    expect(receipts).toBe(3)
    const sent = seen.find((c) => c[0] === 'eth_sendUserOperation')![1][0] as Record<string, Hex>
    expect(sent.paymasterData).toBe('0xbeef')
    const userOpHash = getUserOperationHash({
      userOperation: {
        sender: SMART, nonce: 0n, factory: NET.factory, factoryData: sent.factoryData!, callData: sent.callData!,
        callGasLimit: 0x7530n, verificationGasLimit: 0x493e0n, preVerificationGas: 0xc350n, maxFeePerGas: 0x83215600n, maxPriorityFeePerGas: 0x3b9aca00n,
        paymaster: '0x00000000000000000000000000000000000000aa', paymasterData: '0xbeef', paymasterVerificationGasLimit: 0x186a0n, paymasterPostOpGasLimit: 0xc350n, signature: '0x',
      },
      entryPointAddress: NET.entryPoint, entryPointVersion: '0.7', chainId: 31337,
    })
    expect(await recoverMessageAddress({ message: { raw: userOpHash }, signature: sent.signature! })).toBe(OWNER)
  })

  it('signed in: the stub gets the session, the approval the owner-signed proof latchd checks', async () => {
    const contexts: Record<string, unknown> = {}
    const call = async (method: string, params: unknown[]): Promise<unknown> => {
      if (method.startsWith('pm_')) contexts[method] = params[3]
      switch (method) {
        case 'eth_call':
          return `0x${'0'.repeat(64)}`
        case 'eth_maxPriorityFeePerGas':
        case 'eth_getBlockByNumber':
          return method === 'eth_maxPriorityFeePerGas' ? '0x1' : { baseFeePerGas: '0x1' }
        case 'pm_getPaymasterStubData':
          return { paymaster: '0x00000000000000000000000000000000000000aa', paymasterData: '0x00' }
        case 'eth_estimateUserOperationGas':
          return { preVerificationGas: '0x1', verificationGasLimit: '0x1', callGasLimit: '0x1' }
        case 'pm_getPaymasterData':
          return { paymaster: '0x00000000000000000000000000000000000000aa', paymasterData: '0xbeef' }
        case 'eth_sendUserOperation':
          return '0xop'
        case 'eth_getUserOperationReceipt':
          return { success: true, receipt: { transactionHash: TXH } }
      }
      throw new Error(`unexpected ${method}`)
    }
    const prepared = await prepareOperation(undeployed, [{ from: SMART, to: TO }], call, 'session-token')
    await sendOperation(KEY, undeployed, prepared, call, { sleep: async () => undefined, now: () => 0 }, 'session-token')
    expect(contexts.pm_getPaymasterStubData).toEqual({ latchSession: 'session-token' })
    const ctx = contexts.pm_getPaymasterData as { latchSession: string; latchSessionProof: Hex }
    expect(ctx.latchSession).toBe('session-token')
    // The same message as latchd's bundler.SessionProofMessage (its test holds this vector too).
    const message = await sessionProofMessage(undeployed, 'session-token')
    expect(message).toBe(`Latch sponsorship\nAccount: ${SMART}\nChain: 31337\nSession: c101e911469c969171040b50d70543313cf968fdef5bacc780776f8fb399ab36`)
    expect(await recoverMessageAddress({ message, signature: ctx.latchSessionProof })).toBe(OWNER)
    // Signed out: no context.
    await prepareOperation(undeployed, [{ from: SMART, to: TO }], call)
    expect(contexts.pm_getPaymasterStubData).toEqual({})
  })

  it('refuses a transaction from another address and a reverted call', async () => {
    await expect(prepareOperation(undeployed, [{ from: TO, to: TO }], async () => undefined)).rejects.toThrow(/is not this wallet's/)
    const prepared = { op: { sender: SMART, nonce: '0x0', callData: '0x', callGasLimit: '0x1', verificationGasLimit: '0x1', preVerificationGas: '0x1', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1' } as Record<string, Hex>, sponsored: false, shown: {} }
    const call = async (m: string) => (m === 'eth_sendUserOperation' ? '0xop' : { success: false, reason: '0x08c379a0', receipt: { transactionHash: TXH } })
    await expect(sendOperation(KEY, { ...undeployed, deployed: true }, prepared, call, { sleep: async () => undefined, now: () => 0 })).rejects.toThrow('The transaction reverted: 0x08c379a0')
  })
})

describe('createRpcHandler with smart accounts', () => {
  async function rpcWith(type: 'eoa' | 'smartAccount') {
    const { createRpcHandler } = await import('./rpc')
    const { sa } = accounts({ stored: type })
    const shown: unknown[] = []
    const handle = createRpcHandler({
      wallet: {
        addresses: async () => ({ evm: OWNER, solana: '' }),
        withKeys: async <T,>(fn: (k: { evm: Uint8Array; solana: Uint8Array }) => Promise<T> | T) => fn({ evm: new Uint8Array(KEY), solana: new Uint8Array(32) }),
      },
      api: { rpc: async () => undefined },
      chainId: () => 31337,
      smartAccounts: sa,
      approve: async (request) => {
        shown.push(request.params)
        return true
      },
    })
    return { handle, shown }
  }

  it('the active smart account answers eth_accounts and signs ERC-6492 wrapped; the owner EOA still signs for itself', async () => {
    const { handle, shown } = await rpcWith('smartAccount')
    expect(await handle('a1', { method: 'eth_accounts', chainNamespace: 'eip155', chainId: 31337 })).toEqual([SMART])
    const wrapped = (await handle('a2', { method: 'personal_sign', params: ['0x68656c6c6f', SMART], chainNamespace: 'eip155', chainId: 31337 })) as Hex
    expect(isErc6492Signature(wrapped)).toBe(true)
    const plain = (await handle('a3', { method: 'personal_sign', params: ['0x68656c6c6f', OWNER], chainNamespace: 'eip155', chainId: 31337 })) as Hex
    expect(isErc6492Signature(plain)).toBe(false)
    expect(parseErc6492Signature(wrapped).signature).toBe(plain)
    expect(shown).toHaveLength(2)
  })

  it('with the EOA active, nothing changes', async () => {
    const { handle } = await rpcWith('eoa')
    expect(await handle('b1', { method: 'eth_accounts', chainNamespace: 'eip155', chainId: 31337 })).toEqual([OWNER])
    await expect(handle('b2', { method: 'personal_sign', params: ['0x68656c6c6f', SMART], chainNamespace: 'eip155', chainId: 31337 })).rejects.toThrow(/is not this wallet's/)
  })
})
