// Wallet Standard discovery, the app's side of its window-event protocol:
// wallets that load later answer our listener of `register-wallet`; wallets
// already loaded answer the `app-ready` event we dispatch. Both hand a
// callback our `register`. Only Solana wallets (a solana chain, connect and a
// signing feature) are kept. The protocol is small and stable, so it is
// written here rather than taken as a dependency.

/** The Wallet Standard's identifier of a chain or feature: `namespace:reference`. */
export type IdentifierString = `${string}:${string}`

/** A Wallet Standard account. */
export interface StandardAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly IdentifierString[]
  readonly features: readonly IdentifierString[]
  readonly label?: string
  readonly icon?: string
}

/** A Wallet Standard wallet (the fields we read). */
export interface StandardWallet {
  readonly version: string
  readonly name: string
  readonly icon: string
  readonly chains: readonly IdentifierString[]
  readonly accounts: readonly StandardAccount[]
  readonly features: Readonly<Record<string, unknown>>
}

/** Solana's Wallet Standard features, as we call them. */
export interface SolanaFeatures {
  'standard:connect': { connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardAccount[] }> }
  'standard:disconnect'?: { disconnect(): Promise<void> }
  'standard:events'?: { on(event: 'change', listener: (properties: { accounts?: readonly StandardAccount[] }) => void): () => void }
  'solana:signAndSendTransaction'?: {
    signAndSendTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain: IdentifierString; options?: Record<string, unknown> }[]): Promise<{ signature: Uint8Array }[]>
  }
  'solana:signTransaction'?: {
    signTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain?: IdentifierString }[]): Promise<{ signedTransaction: Uint8Array }[]>
  }
  'solana:signMessage'?: { signMessage(...inputs: { account: StandardAccount; message: Uint8Array }[]): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }[]> }
}

/** A wallet's features, typed as Solana's. */
export const featuresOf = (wallet: StandardWallet): SolanaFeatures => wallet.features as unknown as SolanaFeatures

/** Whether a registered wallet can serve a Solana dapp. */
export function isSolanaWallet(wallet: StandardWallet): boolean {
  const f = wallet.features
  return (
    typeof wallet.name === 'string' &&
    Array.isArray(wallet.chains) &&
    wallet.chains.some((c) => typeof c === 'string' && c.startsWith('solana:')) &&
    'standard:connect' in f &&
    ('solana:signAndSendTransaction' in f || 'solana:signTransaction' in f)
  )
}

/** The discovered Solana wallets of a page. */
export interface WalletWatcher {
  /** The wallets registered now, in order of registration. */
  list(): readonly StandardWallet[]
  /** Calls `listener` whenever a wallet registers or unregisters; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
  /** Stops listening for wallets. */
  stop(): void
}

/** watchWallets starts Wallet Standard discovery on `target` (the window). */
export function watchWallets(target: Pick<Window, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'> = window): WalletWatcher {
  const wallets: StandardWallet[] = []
  const listeners = new Set<() => void>()
  const changed = () => {
    for (const listener of [...listeners]) listener()
  }
  const register = (...registered: StandardWallet[]) => {
    const added = registered.filter((w) => !wallets.includes(w) && isSolanaWallet(w))
    wallets.push(...added)
    if (added.length) changed()
    return () => {
      let removed = false
      for (const w of added) {
        const i = wallets.indexOf(w)
        if (i >= 0) removed = Boolean(wallets.splice(i, 1))
      }
      if (removed) changed()
    }
  }
  const api = Object.freeze({ register })
  const onRegister = (event: Event) => {
    const callback = (event as CustomEvent<unknown>).detail
    if (typeof callback !== 'function') return
    try {
      ;(callback as (api: { register: typeof register }) => void)(api)
    } catch (error) {
      console.error('[latch] a Wallet Standard wallet failed to register', error)
    }
  }
  target.addEventListener('wallet-standard:register-wallet', onRegister)
  target.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }))
  return {
    list: () => wallets,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    stop() {
      target.removeEventListener('wallet-standard:register-wallet', onRegister)
      listeners.clear()
    },
  }
}
