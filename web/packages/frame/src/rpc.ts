// The frame's RPC_REQUEST: what it answers itself (chain id, accounts), what
// it forwards to latchd's RPC proxy (reads), what it signs after the
// visitor's approval in the frame, and what it refuses (spec §6).
import {
  isSafeRpcMethod,
  isUnsafeRpcMethod,
  RPC_NOT_ALLOWED,
  SIGNATURE_DECLINED,
  UNSUPPORTED_METHOD_CODE,
  USER_REJECTED_CODE,
  type AppPayload,
} from '../../core/src/embedded/protocol'
import type { ShownRequest } from './approval'
import type { AuthApi } from './authApi'
import type { Hex } from './params'
import type { SmartAccounts } from './smartAccount'
import type { Wallet } from './wallet'

/** An RPC error with its EIP-1193 / JSON-RPC code. */
export class FrameRpcError extends Error {
  override name = 'FrameRpcError'
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

/** What the RPC handler needs. */
export interface RpcDeps {
  readonly wallet: Pick<Wallet, 'addresses' | 'withKeys'>
  readonly api: Pick<AuthApi, 'rpc'>
  /** The last chain the page switched to (answered locally for eth_chainId). */
  readonly chainId: () => string | number
  /** Shows the request to the visitor in the frame; resolves with their answer (frame.ts: the approval queue). */
  readonly approve: (request: ShownRequest) => Promise<boolean>
  /** The wallet's smart accounts: the active account answers eth_accounts, signs and sends (smartAccountRpc.ts). */
  readonly smartAccounts?: Pick<SmartAccounts, 'active' | 'isDeployed'>
  /** The visitor's Latch session, for the paymaster's sponsorship of signed-in wallets. */
  readonly session?: () => Promise<string | undefined>
}

/** evmChainId reads an EVM chain id given as a number, "1", "0x1" or "eip155:1". */
export function evmChainId(id: string | number): number {
  const s = String(id).replace(/^eip155:/, '')
  const n = /^0x[0-9a-f]+$/i.test(s) ? parseInt(s, 16) : /^\d+$/.test(s) ? Number(s) : NaN
  if (!Number.isSafeInteger(n) || n <= 0 || n >= 2 ** 31) throw new FrameRpcError(`Invalid chain id ${String(id)}`, -32602)
  return n
}

function caip2(namespace: 'eip155' | 'solana', id: string | number): string {
  if (namespace === 'eip155') return `eip155:${evmChainId(id)}`
  const ref = String(id).replace(/^solana:/, '')
  if (!/^[1-9A-HJ-NP-Za-km-z]{1,32}$/.test(ref)) throw new FrameRpcError(`Invalid Solana network ${String(id)}`, -32602)
  return `solana:${ref}`
}

/** toQuantity is a non-negative integer as a JSON-RPC quantity ("0x0", "0x1a"). */
function toQuantity(n: bigint | number): Hex {
  if (n < 0) throw new FrameRpcError(`Invalid quantity ${n}`, -32602)
  return `0x${n.toString(16)}`
}

/** createRpcHandler makes the handler of RPC_REQUEST events. */
export function createRpcHandler(deps: RpcDeps) {
  return async function handle(requestId: string, req: AppPayload<'RPC_REQUEST'>): Promise<unknown> {
    const { method, chainNamespace } = req
    const params = req.params ?? []
    const network = caip2(chainNamespace, req.chainId)
    const call = (m: string, p: unknown[]) => deps.api.rpc(network, m, p)

    if (chainNamespace === 'eip155') {
      if (method === 'eth_chainId') return toQuantity(evmChainId(deps.chainId()))
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') {
        return [deps.smartAccounts ? (await deps.smartAccounts.active(evmChainId(req.chainId))).address : (await deps.wallet.addresses()).evm]
      }
    }
    if (isSafeRpcMethod(method)) {
      if (chainNamespace !== 'eip155') throw new FrameRpcError(RPC_NOT_ALLOWED, UNSUPPORTED_METHOD_CODE)
      return call(method, Array.isArray(params) ? params : [params])
    }
    if (!isUnsafeRpcMethod(method) || method.startsWith('solana_') !== (chainNamespace === 'solana')) {
      throw new FrameRpcError(RPC_NOT_ALLOWED, UNSUPPORTED_METHOD_CODE)
    }

    const ask = async (shown: unknown): Promise<void> => {
      const ok = await deps.approve({ requestId, method, params: shown, chainNamespace, chainId: req.chainId })
      if (!ok) throw new FrameRpcError(SIGNATURE_DECLINED, USER_REJECTED_CODE)
    }
    if (chainNamespace === 'eip155' && deps.smartAccounts) {
      const { answerSmartAccount } = await import('./smartAccountRpc')
      const smart = await answerSmartAccount({ accounts: deps.smartAccounts, withKeys: deps.wallet.withKeys, call, ask, method, params, chainId: evmChainId(req.chainId), session: deps.session })
      if (smart) return smart.result
    }
    const evm = ['evm'] as const
    const sol = ['solana'] as const
    switch (method) {
      case 'personal_sign': {
        const { personalSign } = await import('./evm')
        await ask(params)
        return deps.wallet.withKeys((k) => personalSign(k.evm, params), evm)
      }
      case 'eth_signTypedData_v4': {
        const { signTypedDataV4 } = await import('./evmTypedData')
        await ask(params)
        return deps.wallet.withKeys((k) => signTypedDataV4(k.evm, params), evm)
      }
      case 'eth_sendTransaction': {
        const { buildTransaction, sendTransaction } = await import('./evmTransaction')
        // Built first (nonce, gas, fees) so that the visitor approves the
        // transaction that is signed, fee included.
        const tx = await buildTransaction(params, evmChainId(req.chainId), call)
        const shown = {
          from: tx.from,
          to: tx.to ?? null,
          value: toQuantity(tx.value ?? 0n),
          ...(tx.data ? { data: tx.data } : {}),
          gas: toQuantity(tx.gas ?? 0n),
          nonce: toQuantity(tx.nonce ?? 0),
          maxFeePerGas: toQuantity(tx.maxFeePerGas ?? 0n),
          maxPriorityFeePerGas: toQuantity(tx.maxPriorityFeePerGas ?? 0n),
          chainId: toQuantity(tx.chainId),
        }
        await ask([shown])
        return deps.wallet.withKeys((k): Promise<Hex> => sendTransaction(k.evm, tx, call), evm)
      }
      case 'solana_signMessage': {
        const solana = await import('./solana')
        await ask(solana.shownMessage(params))
        return deps.wallet.withKeys((k) => solana.signMessage(k.solana, params), sol)
      }
      case 'solana_signTransaction': {
        const solana = await import('./solana')
        await ask(params)
        return deps.wallet.withKeys((k) => solana.signTransaction(k.solana, params), sol)
      }
      case 'solana_signAndSendTransaction': {
        const solana = await import('./solana')
        await ask(params)
        return deps.wallet.withKeys((k) => solana.signAndSendTransaction(k.solana, params, call), sol)
      }
    }
  }
}
