// The smart account's side of RPC_REQUEST: when the active account is the
// smart account, a signature or a transaction from its address is made by
// smartAccountOps.ts (loaded then): personal_sign and typed data as the
// owner's signature (ERC-6492 wrapped before deployment), eth_sendTransaction
// as a user operation the visitor approves first. Requests from the owner
// EOA's own address, and every other method, stay with rpc.ts.
import type { Chain, WalletKeys } from './keys'
import type { ChainCall, Hex } from './params'
import type { SmartAccounts } from './smartAccount'

/** What answerSmartAccount needs from the RPC handler. */
export interface SmartRpcRequest {
  readonly accounts: Pick<SmartAccounts, 'active' | 'isDeployed'>
  /** The wallet's keys of chains (the smart account asks for the EVM owner key only). */
  readonly withKeys: <T>(fn: (keys: WalletKeys) => Promise<T> | T, chains?: readonly Chain[]) => Promise<T>
  readonly call: ChainCall
  /** Shows the request to the visitor (the frame's approval view); throws when they decline. */
  readonly ask: (shown: unknown) => Promise<void>
  readonly method: string
  readonly params: unknown
  readonly chainId: number
  readonly sleep?: (ms: number) => Promise<void>
  readonly now?: () => number
  /** The visitor's Latch session (an access token), undefined when signed out: the paymaster may require it. */
  readonly session?: () => Promise<string | undefined>
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()

/** The address a signing request names: personal_sign [message, address], typed data [address, data], a transaction's from. */
function signerOf(method: string, params: unknown): unknown {
  const p = Array.isArray(params) ? params : []
  if (method === 'personal_sign') return p[1]
  if (method === 'eth_signTypedData_v4') return p[0]
  if (method === 'eth_sendTransaction') return (p[0] as { from?: unknown } | undefined)?.from
  return undefined
}

/**
 * answerSmartAccount answers req when it is the smart account's to answer
 * ({result}), or returns undefined for rpc.ts to answer it as the EOA.
 */
export async function answerSmartAccount(req: SmartRpcRequest): Promise<{ result: unknown } | undefined> {
  const { method, params } = req
  if (method !== 'personal_sign' && method !== 'eth_signTypedData_v4' && method !== 'eth_sendTransaction') return undefined
  const active = await req.accounts.active(req.chainId)
  if (active.type !== 'smartAccount' || !active.network || !same(signerOf(method, params), active.address)) return undefined
  const ops = await import('./smartAccountOps')
  const account = { address: active.address, owner: active.owner, network: active.network, deployed: await req.accounts.isDeployed(req.chainId, active.address) }
  const evm = ['evm'] as const
  switch (method) {
    case 'personal_sign':
      await req.ask(params)
      return { result: await req.withKeys((k) => ops.personalSign(k.evm, account, params), evm) }
    case 'eth_signTypedData_v4':
      await req.ask(params)
      return { result: await req.withKeys((k) => ops.signTypedDataV4(k.evm, account, params), evm) }
    case 'eth_sendTransaction': {
      // Prepared first (nonce, fees, sponsorship, gas) so the visitor approves what is sent.
      const session = await req.session?.().catch(() => undefined)
      const prepared = await ops.prepareOperation(account, params, req.call, session)
      await req.ask([prepared.shown])
      const wait = { sleep: req.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))), now: req.now ?? Date.now }
      return { result: await req.withKeys((k): Promise<Hex> => ops.sendOperation(k.evm, account, prepared, req.call, wait, session), evm) }
    }
  }
}
