// The embedded wallet's Solana key as a Wallet Standard wallet: a Solana dapp
// (or wallet adapter) that discovers wallets through the Wallet Standard sees
// the e-mail wallet once the visitor is signed in, and signs through the frame
// like the EVM requests: the frame asks the page for the visitor's approval
// (ApproveTransaction) before it signs. Part of the frame client's chunk, so a
// page whose visitor never uses e-mail login never loads it.
import { base58 } from '../base58'
import type { FrameUser } from './protocol'

const base64 = {
  encode: (bytes: Uint8Array): string => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join('')),
  decode: (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)),
}

/** The Wallet Standard's identifier of a chain or feature: `namespace:reference`. */
type IdentifierString = `${string}:${string}`

/** The Wallet Standard chains of Solana and their CAIP-2 references (genesis hash prefixes). */
export const SOLANA_CHAIN_REFERENCES: Readonly<Record<string, string>> = {
  'solana:mainnet': '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
}

const SIGN_FEATURES = ['solana:signAndSendTransaction', 'solana:signTransaction', 'solana:signMessage'] as const
const TRANSACTION_VERSIONS = ['legacy', 0] as const

/** Why connect() cannot give an account: the visitor logs in through the widget first. */
export const SOLANA_NOT_SIGNED_IN_MESSAGE = 'Log in to the e-mail wallet in the Latch modal first'

/** A request to the frame, as the frame client makes it. */
export type SolanaFrameRequest = (method: string, params: unknown, chainReference: string) => Promise<unknown>

/** An account of the wallet (Wallet Standard `WalletAccount`). */
export interface SolanaWalletAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly IdentifierString[]
  readonly features: readonly IdentifierString[]
  readonly label?: string
}

interface SolanaSendOptions {
  readonly preflightCommitment?: string
  readonly skipPreflight?: boolean
  readonly maxRetries?: number
  readonly minContextSlot?: number
}

/** The part of the Wallet Standard's `Wallet` we implement, with the Solana features. */
export interface LatchSolanaWallet {
  readonly version: '1.0.0'
  readonly name: string
  readonly icon: `data:image/svg+xml;base64,${string}`
  readonly chains: readonly IdentifierString[]
  readonly accounts: readonly SolanaWalletAccount[]
  readonly features: Readonly<Record<string, unknown>>
}

/** The Wallet Standard wallet of the embedded Solana key and how the frame client keeps it current. */
export interface SolanaWalletHandle {
  readonly wallet: LatchSolanaWallet
  /** setUser follows the signed-in visitor (undefined: signed out); registers the wallet on the first account. */
  setUser(user: FrameUser | undefined): void
  /** destroy unregisters the wallet. */
  destroy(): void
}

// An envelope on the widget's accent colour.
const ICON = `data:image/svg+xml;base64,${base64.encode(
  new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3396ff"/><path d="M7 10h18v12H7z" fill="none" stroke="#fff" stroke-width="2"/><path d="m7 10 9 7 9-7" fill="none" stroke="#fff" stroke-width="2"/></svg>',
  ),
)}` as const

/** The CAIP-2 reference of a Wallet Standard Solana chain (`solana:devnet`) or of a CAIP-2 id (`solana:<genesis>`). */
function chainReference(chain: string | undefined): string {
  const id = chain ?? 'solana:mainnet'
  const known = SOLANA_CHAIN_REFERENCES[id]
  if (known) return known
  const ref = /^solana:([1-9A-HJ-NP-Za-km-z]{1,32})$/.exec(id)?.[1]
  if (!ref) throw new Error(`Unsupported Solana chain ${id}`)
  return ref
}

/**
 * registerWallet announces a wallet by the Wallet Standard's window events:
 * to apps already listening (register-wallet) and to apps that start later
 * (they dispatch app-ready). Returns what unregisters it from those apps.
 */
function registerWallet(wallet: LatchSolanaWallet): () => void {
  const unregisters: (() => void)[] = []
  const callback = ({ register }: { register: (w: LatchSolanaWallet) => () => void }) => {
    unregisters.push(register(wallet))
  }
  const onAppReady = (event: Event) => callback((event as CustomEvent<{ register: (w: LatchSolanaWallet) => () => void }>).detail)
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  window.addEventListener('wallet-standard:app-ready', onAppReady)
  return () => {
    window.removeEventListener('wallet-standard:app-ready', onAppReady)
    for (const off of unregisters.splice(0)) off()
  }
}

/**
 * createSolanaWallet makes the Wallet Standard wallet of the embedded Solana
 * key over `request` (an RPC_REQUEST to the frame in the solana namespace).
 */
export function createSolanaWallet(request: SolanaFrameRequest, name: string): SolanaWalletHandle {
  let accounts: readonly SolanaWalletAccount[] = []
  let unregister: (() => void) | undefined
  const listeners = new Set<(properties: { accounts: readonly SolanaWalletAccount[] }) => void>()

  const own = (account: { address: string }): SolanaWalletAccount => {
    const mine = accounts.find((a) => a.address === account.address)
    if (!mine) throw new Error(`Account ${account.address} is not this wallet's`)
    return mine
  }

  async function signTransactions(inputs: readonly { account: { address: string }; transaction: Uint8Array; chain?: string }[]) {
    const out: { signedTransaction: Uint8Array }[] = []
    for (const input of inputs) {
      own(input.account)
      const { transaction } = (await request('solana_signTransaction', { transaction: base64.encode(input.transaction) }, chainReference(input.chain))) as { transaction: string }
      out.push({ signedTransaction: base64.decode(transaction) })
    }
    return out
  }

  async function signAndSendTransactions(
    inputs: readonly { account: { address: string }; transaction: Uint8Array; chain: string; options?: SolanaSendOptions & { commitment?: string; mode?: string } }[],
  ) {
    const out: { signature: Uint8Array }[] = []
    for (const input of inputs) {
      own(input.account)
      const { preflightCommitment, skipPreflight, maxRetries, minContextSlot } = input.options ?? {}
      const options = Object.fromEntries(Object.entries({ preflightCommitment, skipPreflight, maxRetries, minContextSlot }).filter(([, v]) => v !== undefined))
      const params = { transaction: base64.encode(input.transaction), ...(Object.keys(options).length ? { options } : {}) }
      const { signature } = (await request('solana_signAndSendTransaction', params, chainReference(input.chain))) as { signature: string }
      out.push({ signature: base58.decode(signature) })
    }
    return out
  }

  async function signMessages(inputs: readonly { account: { address: string }; message: Uint8Array }[]) {
    const out: { signedMessage: Uint8Array; signature: Uint8Array; signatureType: 'ed25519' }[] = []
    for (const input of inputs) {
      const account = own(input.account)
      const params = { message: base58.encode(input.message), pubkey: account.address }
      const { signature } = (await request('solana_signMessage', params, chainReference(undefined))) as { signature: string }
      out.push({ signedMessage: input.message, signature: base58.decode(signature), signatureType: 'ed25519' })
    }
    return out
  }

  const chains = Object.keys(SOLANA_CHAIN_REFERENCES) as IdentifierString[]
  const wallet: LatchSolanaWallet = {
    version: '1.0.0',
    name,
    icon: ICON,
    chains,
    get accounts() {
      return accounts
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input?: { silent?: boolean }) {
          if (!accounts.length && !input?.silent) throw new Error(SOLANA_NOT_SIGNED_IN_MESSAGE)
          return { accounts }
        },
      },
      // The dapp forgets the wallet; the visitor stays signed in to the widget (signing out is the widget's).
      'standard:disconnect': { version: '1.0.0', disconnect: async () => undefined },
      'standard:events': {
        version: '1.0.0',
        on(event: string, listener: (properties: { accounts: readonly SolanaWalletAccount[] }) => void) {
          if (event !== 'change') return () => undefined
          listeners.add(listener)
          return () => void listeners.delete(listener)
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: TRANSACTION_VERSIONS,
        signAndSendTransaction: (...inputs: Parameters<typeof signAndSendTransactions>[0]) => signAndSendTransactions(inputs),
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: TRANSACTION_VERSIONS,
        signTransaction: (...inputs: Parameters<typeof signTransactions>[0]) => signTransactions(inputs),
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: (...inputs: Parameters<typeof signMessages>[0]) => signMessages(inputs),
      },
    },
  }

  return {
    wallet,
    setUser(user) {
      const address = user?.solanaAddress
      if (address === accounts[0]?.address || (!address && !accounts.length)) return
      accounts = address
        ? [Object.freeze({ address, publicKey: base58.decode(address), chains, features: SIGN_FEATURES, ...(user?.email ? { label: user.email } : {}) })]
        : []
      if (accounts.length && !unregister && typeof window !== 'undefined') unregister = registerWallet(wallet)
      for (const listener of listeners) listener({ accounts })
    },
    destroy() {
      unregister?.()
      unregister = undefined
      accounts = []
    },
  }
}
