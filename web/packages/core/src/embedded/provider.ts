// The EIP-1193 provider of the embedded wallet: what wagmi, viem and the app
// (useLatchProvider) talk to. The chain id and the accounts are answered
// here; a chain switch goes to the frame as SWITCH_NETWORK; every other
// method is an RPC_REQUEST to the frame, which proxies reads to latchd and
// asks the visitor (ApproveTransaction) before it signs (spec §6).
import { numberToHex } from 'viem'
import type { EmbeddedWallet } from './controller'
import { UNSUPPORTED_METHOD_CODE } from './protocol'

/** An EIP-1193 error (code + message), as viem and apps expect them. */
export class EmbeddedRpcError extends Error {
  override name = 'ProviderRpcError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** EIP-1193: the provider is not connected to any chain / the account is not authorised. */
const DISCONNECTED_CODE = 4900
/** EIP-1193: an internal error of the wallet when the frame gave no code. */
const INTERNAL_ERROR_CODE = -32603
/** EIP-3085/3326: the chain is not known to the wallet. */
const UNRECOGNISED_CHAIN_CODE = 4902

type Listener = (...args: unknown[]) => void

/** A JSON-RPC request as EIP-1193 passes it. */
export interface EmbeddedRpcRequest {
  readonly method: string
  readonly params?: unknown
}

/** The EIP-1193 face of the embedded wallet. */
export interface EmbeddedEip1193Provider {
  readonly isLatchEmbedded: true
  request(args: EmbeddedRpcRequest): Promise<unknown>
  on(event: string, listener: Listener): void
  removeListener(event: string, listener: Listener): void
  /** Tells the app's listeners of an event (accountsChanged, chainChanged, disconnect). */
  emit(event: string, ...args: unknown[]): void
}

/** What the provider needs besides the wallet. */
export interface EmbeddedProviderHooks {
  /** The signed-in account's addresses; empty when signed out. */
  accounts(): readonly string[]
  /** Whether chainId is one of the app's networks. */
  isKnownChain(chainId: number): boolean
}

/** createEmbeddedProvider makes the EIP-1193 provider over the wallet's frame. */
export function createEmbeddedProvider(wallet: EmbeddedWallet, hooks: EmbeddedProviderHooks): EmbeddedEip1193Provider {
  const listeners = new Map<string, Set<Listener>>()

  async function switchChain(chainId: number): Promise<null> {
    if (!hooks.isKnownChain(chainId)) throw new EmbeddedRpcError(UNRECOGNISED_CHAIN_CODE, `Unrecognized chain ID "${numberToHex(chainId)}"`)
    if (chainId === wallet.chainId()) return null
    const frame = await wallet.frame()
    await frame.request('SWITCH_NETWORK', { chainId: `eip155:${chainId}` })
    wallet.setChainId(chainId)
    // The account in force may differ per chain (a smart account where the chain has one, else the EOA).
    const before = hooks.accounts()[0]
    const user = await frame.request('GET_USER', { chainId: `eip155:${chainId}` })
    wallet.store.setState({ user })
    if (hooks.accounts()[0] !== before) provider.emit('accountsChanged', [...hooks.accounts()])
    provider.emit('chainChanged', numberToHex(chainId))
    return null
  }

  async function request({ method, params }: EmbeddedRpcRequest): Promise<unknown> {
    switch (method) {
      case 'eth_chainId':
        return numberToHex(wallet.chainId())
      case 'net_version':
        return String(wallet.chainId())
      case 'eth_accounts':
        return [...hooks.accounts()]
      case 'eth_requestAccounts': {
        const accounts = hooks.accounts()
        if (accounts.length === 0) throw new EmbeddedRpcError(DISCONNECTED_CODE, 'The e-mail wallet is not signed in')
        return [...accounts]
      }
      case 'wallet_switchEthereumChain': {
        const [arg] = (Array.isArray(params) ? params : []) as [{ chainId?: unknown } | undefined]
        const id = typeof arg?.chainId === 'string' ? Number(arg.chainId) : NaN
        if (!Number.isSafeInteger(id) || id <= 0) throw new EmbeddedRpcError(-32602, 'wallet_switchEthereumChain needs a chainId')
        return switchChain(id)
      }
    }
    if (hooks.accounts().length === 0) throw new EmbeddedRpcError(DISCONNECTED_CODE, 'The e-mail wallet is not signed in')
    try {
      const frame = await wallet.frame()
      return await frame.request('RPC_REQUEST', { method, params, chainNamespace: 'eip155', chainId: `eip155:${wallet.chainId()}` })
    } catch (error) {
      // The frame's ERROR answer carries the EIP-1193 code (4001 declined, 4200 refused method) when it has one.
      const code = (error as { code?: unknown }).code
      // Spec §4: a method the wallet does not know opens the modal with the message.
      if (code === UNSUPPORTED_METHOD_CODE) wallet.methodNotAllowed()
      throw new EmbeddedRpcError(typeof code === 'number' ? code : INTERNAL_ERROR_CODE, error instanceof Error ? error.message : String(error))
    }
  }

  const provider: EmbeddedEip1193Provider = {
    isLatchEmbedded: true,
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
  return provider
}
