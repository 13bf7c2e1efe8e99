// The session proposal a WalletConnect connection sends: which methods and
// events each namespace asks for. Only the connector's lazy chunk uses it.
// Types only: a value imported from the page's first chunk would split it into a chunk of its own.
import type { NonEvmChains, NonEvmNamespace } from './namespaces'

/**
 * Wallet methods requested for eip155: the wallet-side JSON-RPC of spec §7
 * that a wallet answers (signing, sending, chain management, capabilities,
 * permissions). Reads such as eth_call go to latchd's RPC proxy instead.
 */
export const EIP155_METHODS = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_sendRawTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'personal_sign',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getPermissions',
  'wallet_requestPermissions',
  'wallet_revokePermissions',
  'wallet_grantPermissions',
  'wallet_watchAsset',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_showCallsStatus',
  'wallet_getAssets',
] as const

/** Session events every namespace subscribes to. */
export const DEFAULT_EVENTS = ['chainChanged', 'accountsChanged'] as const

/** Default wallet methods per non-EVM namespace (spec §7 names the Solana ones). */
export const NON_EVM_METHODS: Readonly<Record<NonEvmNamespace, readonly string[]>> = {
  solana: [
    'solana_signMessage',
    'solana_signTransaction',
    'solana_signAllTransactions',
    'solana_signAndSendTransaction',
    'solana_requestAccounts',
    'solana_getAccounts',
  ],
  bip122: ['sendTransfer', 'signMessage', 'signPsbt', 'getAccountAddresses'],
  polkadot: ['polkadot_signTransaction', 'polkadot_signMessage'],
  cosmos: ['cosmos_getAccounts', 'cosmos_signDirect', 'cosmos_signAmino'],
}

const NON_EVM_EVENTS: Readonly<Record<NonEvmNamespace, readonly string[]>> = {
  solana: DEFAULT_EVENTS,
  bip122: [...DEFAULT_EVENTS, 'bip122_addressesChanged'],
  polkadot: DEFAULT_EVENTS,
  cosmos: DEFAULT_EVENTS,
}

/** One namespace of a session proposal (CAIP-25), with an RPC URL per chain where we have one. */
export interface ProposalNamespace {
  readonly chains: string[]
  readonly methods: string[]
  readonly events: string[]
  /** RPC URL by chain reference (`"1"` for eip155:1), for the SDK's own reads. */
  readonly rpcMap?: Record<string, string>
}

/** Optional namespaces of a session proposal. */
export type ProposalNamespaces = Record<string, ProposalNamespace>

/** Inputs of {@link buildOptionalNamespaces}. */
export interface OptionalNamespacesInput {
  /** EVM chain ids (the configured networks), the active one first. */
  readonly evmChainIds: readonly number[]
  /** The RPC URL of an EVM chain (latchd's RPC proxy), or undefined for none. */
  readonly rpcUrl?: ((chainId: number) => string | undefined) | undefined
  readonly nonEvm?: NonEvmChains | undefined
}

/**
 * buildOptionalNamespaces is the session proposal's optional namespaces:
 * eip155 with every configured network (in order, so the wallet starts on the
 * first), its wallet methods and events and an RPC URL per chain, then each
 * configured non-EVM namespace with its default methods.
 */
export function buildOptionalNamespaces(input: OptionalNamespacesInput): ProposalNamespaces {
  const namespaces: ProposalNamespaces = {}
  const evm = [...new Set(input.evmChainIds)]
  if (evm.length > 0) {
    const rpcMap: Record<string, string> = {}
    for (const id of evm) {
      const url = input.rpcUrl?.(id)
      if (url) rpcMap[String(id)] = url
    }
    namespaces.eip155 = {
      chains: evm.map((id) => `eip155:${id}`),
      methods: [...EIP155_METHODS],
      events: [...DEFAULT_EVENTS],
      ...(Object.keys(rpcMap).length > 0 ? { rpcMap } : {}),
    }
  }
  for (const ns of Object.keys(NON_EVM_METHODS) as NonEvmNamespace[]) {
    const chains = input.nonEvm?.[ns]
    if (!chains || chains.length === 0) continue
    namespaces[ns] = { chains: [...chains], methods: [...NON_EVM_METHODS[ns]], events: [...NON_EVM_EVENTS[ns]] }
  }
  return namespaces
}
