// The wallet's ERC-4337 smart account (spec §3 account types; §7 the
// smart-account messages): on the networks where latchd runs a bundler (the
// frame's page lists them with their EntryPoint and account factory), the
// EVM owner key also has a LatchSmartAccount, at the factory's CREATE2
// address for (owner, salt 0), deployed by its first user operation. This
// file is the part the frame needs up to READY and for GET_USER: which
// networks, which account is active, its address and whether it is
// deployed, all asked of the chain through latchd's RPC proxy; the user
// operations and ERC-6492 signatures are in smartAccountOps.ts, loaded
// when first used.
import { z } from 'zod/mini'
import type { FrameUser } from '../../core/src/embedded/protocol'
import type { ChainCall } from './evm'

/** Spec §8: the answer when the wallet has no smart account on the network. */
export const SMART_ACCOUNTS_UNSUPPORTED = 'This application might not support Smart Accounts'

/** The account types of the embedded wallet (spec §3). */
export type AccountType = 'eoa' | 'smartAccount'

/** A network with a bundler: its chain id, EntryPoint v0.7 and LatchSmartAccountFactory. */
export interface SmartAccountNetwork {
  readonly chainId: number
  readonly entryPoint: `0x${string}`
  readonly factory: `0x${string}`
}

const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
const networksSchema = z.array(z.object({ chainId: z.int().check(z.positive()), entryPoint: address, factory: address }))

/** readSmartAccountNetworks reads the page's <meta name="latch-smart-accounts"> JSON; anything malformed is no network. */
export function readSmartAccountNetworks(content: string | null | undefined): SmartAccountNetwork[] {
  if (!content) return []
  try {
    const r = networksSchema.safeParse(JSON.parse(content))
    return r.success ? (r.data as SmartAccountNetwork[]) : []
  } catch {
    return []
  }
}

/** The account salt: one smart account per owner key. */
const SALT = 0n
/** LatchSmartAccountFactory.getAddress(address,uint256). */
const GET_ADDRESS_SELECTOR = '0x8cb84e18'

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')

/** The active account of the wallet on a chain. */
export interface ActiveAccount {
  readonly type: AccountType
  readonly address: `0x${string}`
  /** The EOA that owns the smart account (or is the account). */
  readonly owner: `0x${string}`
  /** The smart account's network, when type is smartAccount. */
  readonly network?: SmartAccountNetwork
}

/** What the smart accounts need. */
export interface SmartAccountDeps {
  readonly networks: readonly SmartAccountNetwork[]
  /** A JSON-RPC call on an EVM chain (latchd's RPC proxy). */
  readonly call: (chainId: number, method: string, params: unknown[]) => Promise<unknown>
  /** The wallet's EVM owner address (throws when signed out). */
  readonly owner: () => Promise<`0x${string}`>
  /** The preferred type kept in the frame's storage (so a reload keeps it); undefined when none. */
  readonly load?: () => Promise<unknown>
  readonly save?: (type: AccountType) => Promise<void>
}

/**
 * createSmartAccounts keeps the visitor's preferred account type (the page
 * sends it with GET_USER and SET_PREFERRED_ACCOUNT; smart account until then) and
 * answers, per chain, which account is active and where it is.
 */
export function createSmartAccounts(deps: SmartAccountDeps) {
  // Spec §3: on eip155 the embedded wallet is a smart account unless the visitor or the app chose otherwise.
  let preferred: AccountType = 'smartAccount'
  let loaded: Promise<void> | undefined
  // The stored preference, read once before the first answer that depends on it.
  const ready = () =>
    (loaded ??= (deps.load?.() ?? Promise.resolve(undefined)).then(
      (v) => {
        if (v === 'eoa' || v === 'smartAccount') preferred = v
      },
      () => undefined,
    ))
  const prefer = async (type: AccountType) => {
    await ready()
    preferred = type
    await deps.save?.(type)
  }
  // Counterfactual addresses by "chainId:owner": they never change.
  const addresses = new Map<string, `0x${string}`>()

  const network = (chainId: number) => deps.networks.find((n) => n.chainId === chainId)

  /** addressOf asks the factory for the account address of owner (getAddress(owner, 0)). */
  async function addressOf(net: SmartAccountNetwork, owner: `0x${string}`): Promise<`0x${string}`> {
    const key = `${net.chainId}:${owner.toLowerCase()}`
    const known = addresses.get(key)
    if (known) return known
    const data = `${GET_ADDRESS_SELECTOR}${word(owner)}${word(SALT.toString(16))}`
    const out = (await deps.call(net.chainId, 'eth_call', [{ to: net.factory, data }, 'latest'])) as string
    if (typeof out !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(out)) throw new Error('The account factory answered no address')
    const addr = `0x${out.slice(26)}` as `0x${string}`
    addresses.set(key, addr)
    return addr
  }

  async function isDeployed(chainId: number, addr: string): Promise<boolean> {
    const code = (await deps.call(chainId, 'eth_getCode', [addr, 'latest'])) as string
    return typeof code === 'string' && code !== '0x' && code !== '0x0'
  }

  /** smartAccount returns the wallet's smart account on chainId, or throws SMART_ACCOUNTS_UNSUPPORTED. */
  async function smartAccount(chainId: number): Promise<{ address: `0x${string}`; owner: `0x${string}`; network: SmartAccountNetwork }> {
    const net = network(chainId)
    if (!net) throw new Error(SMART_ACCOUNTS_UNSUPPORTED)
    const owner = await deps.owner()
    return { address: await addressOf(net, owner), owner, network: net }
  }

  /**
   * active is the account the wallet uses on chainId: the smart account
   * when it is preferred and the chain has one, else the EOA.
   */
  async function active(chainId: number): Promise<ActiveAccount> {
    await ready()
    const owner = await deps.owner()
    if (preferred !== 'smartAccount' || !network(chainId)) return { type: 'eoa', address: owner, owner }
    try {
      const sa = await smartAccount(chainId)
      return { type: 'smartAccount', address: sa.address, owner, network: sa.network }
    } catch {
      // As GET_USER: an account that cannot be read falls back to the EOA (spec §4).
      return { type: 'eoa', address: owner, owner }
    }
  }

  return {
    /** The preferred type now (after the stored one was read). */
    preferred: async () => {
      await ready()
      return preferred
    },
    /** enabledNetworks answers GET_SMART_ACCOUNT_ENABLED_NETWORKS. */
    enabledNetworks: () => ({ smartAccountEnabledNetworks: deps.networks.map((n) => n.chainId) }),
    active,
    isDeployed,
    /** init answers INIT_SMART_ACCOUNT: the smart account of chainId and whether it exists on chain. */
    async init(chainId: number): Promise<{ address: string; isDeployed: boolean }> {
      const sa = await smartAccount(chainId)
      return { address: sa.address, isDeployed: await isDeployed(chainId, sa.address) }
    },
    /**
     * setPreferred answers SET_PREFERRED_ACCOUNT: a smart account on a chain
     * without one is refused (SMART_ACCOUNTS_UNSUPPORTED) and the type is not
     * changed.
     */
    async setPreferred(type: AccountType, chainId: number): Promise<{ type: AccountType; address: string }> {
      if (type === 'smartAccount') {
        const sa = await smartAccount(chainId)
        await prefer(type)
        return { type, address: sa.address }
      }
      await prefer(type)
      return { type, address: await deps.owner() }
    },
    /**
     * withAccounts completes GET_USER's answer: both accounts where the chain
     * has a smart account, the active one's address, the preferred type in
     * force and whether the smart account is deployed. requested is the
     * page's stored preference; if the smart account cannot be read, the
     * user gets the EOA (spec §4: a preferred-account failure falls back to
     * EOA).
     */
    async withAccounts(user: FrameUser, chainId: number, requested: AccountType | undefined): Promise<FrameUser> {
      await ready()
      if (requested && requested !== preferred) await prefer(requested)
      if (!network(chainId)) return { ...user, preferredAccountType: 'eoa', smartAccountDeployed: false }
      try {
        const sa = await smartAccount(chainId)
        const deployed = await isDeployed(chainId, sa.address)
        const eoa = { address: user.address, type: 'eoa' as const }
        const smart = { address: sa.address, type: 'smartAccount' as const }
        const useSmart = preferred === 'smartAccount'
        return {
          ...user,
          address: useSmart ? sa.address : user.address,
          accounts: useSmart ? [smart, eoa] : [eoa, smart],
          preferredAccountType: useSmart ? 'smartAccount' : 'eoa',
          smartAccountDeployed: deployed,
        }
      } catch {
        // The stored preference stays: the smart account is back when the network answers again.
        return { ...user, preferredAccountType: 'eoa', smartAccountDeployed: false }
      }
    },
  }
}

/** The smart accounts of a frame. */
export type SmartAccounts = ReturnType<typeof createSmartAccounts>

/** chainCallOf adapts latchd's RPC proxy call (CAIP-2 network) to a ChainCall on chainId. */
export function chainCallOf(call: SmartAccountDeps['call'], chainId: number): ChainCall {
  return (method, params) => call(chainId, method, params)
}
