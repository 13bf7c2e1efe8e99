// What a WalletConnect session asks the wallet for (spec §1: eip155, solana,
// polkadot, bip122, cosmos; spec §7: "The pairing session is requested with
// optional namespaces and an optional pairingTopic"). Everything is optional:
// required namespaces are deprecated in WalletConnect v2 and make wallets that
// lack one chain refuse the whole session.

/** The namespaces WalletConnect can add beside the EVM networks. */
export const NON_EVM_NAMESPACES = ['solana', 'bip122', 'polkadot', 'cosmos'] as const
/** A non-EVM namespace WalletConnect can request. */
export type NonEvmNamespace = (typeof NON_EVM_NAMESPACES)[number]

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

/** Extra non-EVM chains to request, by namespace, as CAIP-2 ids (e.g. `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`). */
export type NonEvmChains = Partial<Record<NonEvmNamespace, readonly string[]>>

// CAIP-2: namespace [-a-z0-9]{3,8}, reference [-_a-zA-Z0-9]{1,32}.
const caip2 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/

/** Thrown for a malformed chain id; the message is spec §5's. */
export class InvalidCaipNetworkIdError extends Error {
  override name = 'InvalidCaipNetworkIdError'
  constructor(readonly caipNetworkId: string) {
    super(`Invalid CAIP-2 network id: ${caipNetworkId}`)
  }
}

/** parseCaipNetworkId splits a CAIP-2 id; throws InvalidCaipNetworkIdError when it is not one. */
export function parseCaipNetworkId(id: string): { namespace: string; reference: string } {
  const match = caip2.exec(id)
  if (!match) throw new InvalidCaipNetworkIdError(id)
  return { namespace: match[1]!, reference: match[2]! }
}

/**
 * validateNonEvmChains checks the `walletConnect.namespaces` option: only the
 * four namespaces WalletConnect adds, each a list of CAIP-2 ids of that
 * namespace. It returns a copy without duplicates and empty lists, or throws
 * an Error naming what is wrong.
 */
export function validateNonEvmChains(value: unknown): NonEvmChains {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('`walletConnect.namespaces` must be an object of chain id lists')
  }
  const result: Partial<Record<NonEvmNamespace, string[]>> = {}
  for (const [key, chains] of Object.entries(value)) {
    if (!(NON_EVM_NAMESPACES as readonly string[]).includes(key)) {
      throw new Error(`\`walletConnect.namespaces\` holds "${key}"; allowed: ${NON_EVM_NAMESPACES.join(', ')}`)
    }
    if (!Array.isArray(chains) || chains.some((c) => typeof c !== 'string')) {
      throw new Error(`\`walletConnect.namespaces.${key}\` must be a list of CAIP-2 chain ids`)
    }
    for (const chain of chains as string[]) {
      if (parseCaipNetworkId(chain).namespace !== key) {
        throw new Error(`\`walletConnect.namespaces.${key}\` holds ${chain}, a chain of another namespace`)
      }
    }
    if (chains.length > 0) result[key as NonEvmNamespace] = [...new Set(chains as string[])]
  }
  return result
}

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
  for (const ns of NON_EVM_NAMESPACES) {
    const chains = input.nonEvm?.[ns]
    if (!chains || chains.length === 0) continue
    namespaces[ns] = { chains: [...chains], methods: [...NON_EVM_METHODS[ns]], events: [...NON_EVM_EVENTS[ns]] }
  }
  return namespaces
}
