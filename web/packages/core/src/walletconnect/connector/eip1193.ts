// The EIP-1193 provider a WalletConnect connection hands to wagmi, viem and the
// app (useLatchProvider). Wallet methods the session approved go to the wallet
// over the relay; everything else — reads such as eth_call or eth_estimateGas —
// goes through the chain's wagmi transport (latchd's RPC proxy in the config
// Latch creates). The SDK's own HTTP fallback (rpc.walletconnect.org, and its
// bundler endpoint for wallet_getCallsStatus) is therefore never used.
import { getAddress, isAddress, numberToHex, type Address } from 'viem'
import { EIP155_METHODS } from '../proposal'
import type { RpcRequest, UniversalProviderLike } from './types'

/** An EIP-1193 error (code + message), as wallets and viem expect them. */
export class WalletConnectRpcError extends Error {
  override name = 'ProviderRpcError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** Answers a read on one chain; undefined when the chain has no transport. */
export type ChainReader = (chainId: number, request: RpcRequest) => Promise<unknown> | undefined

/** Methods only a wallet can answer: never sent to an RPC node, even when the session did not approve them. */
const walletMethods: ReadonlySet<string> = new Set(EIP155_METHODS.filter((m) => m !== 'eth_sendRawTransaction'))

/** Node methods in the wallet list: an already signed transaction is broadcast through the chain's RPC. */
const nodeMethods: ReadonlySet<string> = new Set(['eth_sendRawTransaction'])

type Listener = (...args: unknown[]) => void

/** The current eip155 chain of a provider's session (the sub-provider's default chain). */
export function currentChainId(provider: UniversalProviderLike): number | undefined {
  const fromProvider = Number(provider.rpcProviders.eip155?.getDefaultChain())
  if (Number.isSafeInteger(fromProvider) && fromProvider > 0) return fromProvider
  const first = sessionChainIds(provider)[0]
  return first
}

/** The eip155 chain ids the session approved, in the wallet's order. */
export function sessionChainIds(provider: UniversalProviderLike): number[] {
  const ns = provider.session?.namespaces.eip155
  if (!ns) return []
  const ids = [...(ns.chains ?? []), ...ns.accounts].map((id) => Number(id.split(':')[1]))
  return [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))]
}

/** The session's EVM accounts on `chainId` (checksummed, without duplicates). */
export function sessionAccounts(provider: UniversalProviderLike, chainId: number | undefined): Address[] {
  const accounts = provider.session?.namespaces.eip155?.accounts ?? []
  const onChain = accounts.filter((a) => chainId === undefined || a.split(':')[1] === String(chainId))
  const addresses = (onChain.length > 0 ? onChain : accounts).map((a) => a.split(':')[2] ?? '').filter((a) => isAddress(a))
  return [...new Set(addresses.map((a) => getAddress(a)))]
}

/** The EIP-1193 face of a WalletConnect session. */
export interface WalletConnectEip1193Provider {
  readonly isWalletConnect: true
  request(args: RpcRequest): Promise<unknown>
  on(event: string, listener: Listener): void
  removeListener(event: string, listener: Listener): void
  /** Emits an event to the app's listeners (the connector forwards the session's events). */
  emit(event: string, ...args: unknown[]): void
}

/** createEip1193Provider wraps a universal provider; `read` answers non-wallet methods. */
export function createEip1193Provider(universal: UniversalProviderLike, read: ChainReader): WalletConnectEip1193Provider {
  const listeners = new Map<string, Set<Listener>>()

  async function request({ method, params }: RpcRequest): Promise<unknown> {
    const session = universal.session
    if (!session?.namespaces.eip155) throw new WalletConnectRpcError(4900, 'WalletConnect is not connected')
    const chainId = currentChainId(universal)
    if (chainId === undefined) throw new WalletConnectRpcError(4901, 'The WalletConnect session has no EVM chain')
    const chain = `eip155:${chainId}`
    switch (method) {
      case 'eth_chainId':
        return numberToHex(chainId)
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return sessionAccounts(universal, chainId)
      case 'wallet_switchEthereumChain':
        // Switches locally to an approved chain, else asks the wallet.
        return universal.request({ method, params }, chain).catch(rethrowRpcError)
    }
    const approved = session.namespaces.eip155.methods
    if (method === 'wallet_getCallsStatus') {
      // Straight to the wallet: the sub-provider would first try the SDK's bundler endpoint.
      if (!approved.includes(method)) throw unsupported(method)
      return universal.client.request({ topic: session.topic, chainId: chain, request: { method, params } }).catch(rethrowRpcError)
    }
    if (approved.includes(method) && !nodeMethods.has(method)) return universal.request({ method, params }, chain).catch(rethrowRpcError)
    if (walletMethods.has(method)) throw unsupported(method)
    const answer = read(chainId, { method, params })
    if (!answer) throw new WalletConnectRpcError(4901, `Chain ${chainId} is not configured`)
    return answer
  }

  return {
    isWalletConnect: true,
    request,
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event, ...args) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(...args)
    },
  }
}

/**
 * The wallet's error answer reaches us as the plain JSON-RPC error object
 * (`{code, message}`); EIP-1193 callers expect an Error with that code.
 */
function rethrowRpcError(error: unknown): never {
  if (error instanceof Error) throw error
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'number') throw new WalletConnectRpcError(code, typeof message === 'string' ? message : `Error ${code}`)
  throw new Error(typeof message === 'string' ? message : String(error))
}

function unsupported(method: string): WalletConnectRpcError {
  return new WalletConnectRpcError(4200, `The wallet did not approve ${method} for this session`)
}
