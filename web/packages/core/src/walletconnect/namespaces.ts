// What a WalletConnect session asks the wallet for (spec §1: eip155, solana,
// polkadot, bip122, cosmos; spec §7: "The pairing session is requested with
// optional namespaces and an optional pairingTopic"). Everything is optional:
// required namespaces are deprecated in WalletConnect v2 and make wallets that
// lack one chain refuse the whole session.

/** The namespaces WalletConnect can add beside the EVM networks. */
export const NON_EVM_NAMESPACES = ['solana', 'bip122', 'polkadot', 'cosmos'] as const
/** A non-EVM namespace WalletConnect can request. */
export type NonEvmNamespace = (typeof NON_EVM_NAMESPACES)[number]

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
