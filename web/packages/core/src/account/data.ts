// The account-data service of a Latch instance: the latchd client plus the
// state the spec gives balance fetching (§4 balanceLoading with a retry lock
// after a failure, §8 the 'Token Balance Unavailable' toast), the identity
// cache (§9: 5 minutes) and the "the visitor sent a transaction" signal that
// refreshes balances and history. Server data itself is cached by TanStack
// Query in the UI, with the query keys and cache times below.
import { createStore, type SliceFactory, type Store } from '../store'
import type { AccountClient, GetBalancesParams, GetHistoryParams } from './client'
import type { Identity, TokenBalance, TransactionPage } from './types'

/** Cache times of spec §9, in ms. */
export const ACCOUNT_CACHE_MS = {
  /** Token balances (the "portfolio"). */
  portfolio: 30_000,
  nativeBalance: 30_000,
  /** Name resolution. */
  names: 300_000,
  identity: 300_000,
} as const

/** After a failed balance fetch, no new attempt for this long (spec §8, §9). */
export const BALANCE_RETRY_LOCK_MS = 30_000

/** Message of the toast shown when balances cannot be fetched (spec §8). */
export const BALANCE_UNAVAILABLE = 'Token Balance Unavailable'

/** TanStack Query keys of the account data; every key starts with `['latch', 'account']`. */
export const accountQueryKeys = {
  all: ['latch', 'account'] as const,
  balances: (address: string, caipNetworkId: string) => ['latch', 'account', 'balances', caipNetworkId, address.toLowerCase()] as const,
  history: (address: string, caipNetworkId: string) => ['latch', 'account', 'history', caipNetworkId, address.toLowerCase()] as const,
  identity: (address: string) => ['latch', 'account', 'identity', address.toLowerCase()] as const,
}

/** Thrown instead of fetching while the retry lock of a failed balance fetch holds. */
export class BalanceRetryLockedError extends Error {
  override readonly name = 'BalanceRetryLockedError'
  /** When a fetch may be tried again (ms since epoch). */
  readonly retryAt: number

  constructor(retryAt: number) {
    super(BALANCE_UNAVAILABLE)
    this.retryAt = retryAt
  }
}

/** State of the account-data service. */
export interface AccountDataState {
  /** A balance fetch is running (spec §4). */
  readonly balanceLoading: boolean
  /** Set after a failed fetch: no new fetch before this time (ms since epoch). */
  readonly balanceRetryAt: number | undefined
  /** Counts the visitor's own transactions; views refresh when it changes. */
  readonly transactionCount: number
}

/** A transaction the visitor sent through the widget. */
export interface SentTransaction {
  readonly hash: string
  readonly chainId: number
  /** The network's CAIP-2 id when it is not `eip155:<chainId>` (a Solana network). */
  readonly caipNetworkId?: string | undefined
  /** CAIP-10 addresses of the tokens whose balances changed (for the balance route's forceUpdate). */
  readonly tokens: readonly string[]
}

/** Parameters of createAccountData. */
export interface AccountDataParameters {
  /** latchd's client, or a function that loads it (the client and its schemas are an on-demand chunk). */
  readonly client: AccountClient | (() => Promise<AccountClient>)
  /** Shows the 'Token Balance Unavailable' error toast; `message` is its English text (an instance shows account.balanceUnavailable in its locale). */
  readonly showError: (message: string) => void
  readonly now?: () => number
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<AccountDataState>
}

/** The account-data service. */
export interface AccountData {
  /** latchd's account client (loaded on first use). */
  getClient(): Promise<AccountClient>
  readonly store: Store<AccountDataState>
  /**
   * Balances of an account on a network. Sets balanceLoading while it runs.
   * On failure it shows the 'Token Balance Unavailable' toast, locks retries
   * for 30 s and rethrows; while locked it throws BalanceRetryLockedError
   * without asking latchd (and without a second toast).
   */
  fetchBalances(params: GetBalancesParams, init?: { signal?: AbortSignal }): Promise<TokenBalance[]>
  fetchHistory(params: GetHistoryParams, init?: { signal?: AbortSignal }): Promise<TransactionPage>
  /** Name and avatar of an address, cached for 5 minutes (spec §9); failures answer blank. */
  fetchIdentity(address: string, sender?: string): Promise<Identity>
  /** Records a transaction the visitor sent; listeners (balance and history refresh) run. */
  notifyTransaction(transaction: SentTransaction): void
  /** Subscribes to the visitor's transactions; returns the unsubscribe function. */
  onTransaction(listener: (transaction: SentTransaction) => void): () => void
  /** Token addresses to pass as forceUpdate on the next balance fetch of this network (then cleared). */
  takeForceUpdate(caipNetworkId: string): string[]
}

const blankIdentity: Identity = { name: null, avatar: null }

/** createAccountData wraps a client with the spec's balance state and the identity cache. */
export function createAccountData(params: AccountDataParameters): AccountData {
  const now = params.now ?? Date.now
  const store = (params.slice ?? createStore)({ balanceLoading: false, balanceRetryAt: undefined, transactionCount: 0 })
  const identities = new Map<string, { at: number; value: Promise<Identity> }>()
  const listeners = new Set<(transaction: SentTransaction) => void>()
  const forceUpdate = new Map<string, Set<string>>()
  let running = 0
  let client: Promise<AccountClient> | undefined
  const getClient = (): Promise<AccountClient> => {
    const given = params.client
    client ??= (typeof given === 'function' ? given() : Promise.resolve(given)).catch((error: unknown) => {
      client = undefined
      throw error
    })
    return client
  }

  return {
    getClient,
    store,

    async fetchBalances(query, init) {
      const retryAt = store.getState().balanceRetryAt
      if (retryAt !== undefined && now() < retryAt) throw new BalanceRetryLockedError(retryAt)
      running++
      store.setState({ balanceLoading: true })
      try {
        const balances = await (await getClient()).getBalances(query, init)
        store.setState({ balanceRetryAt: undefined })
        return balances
      } catch (error) {
        // An aborted fetch (the view went away) is not a failure of latchd.
        if ((error as { name?: string } | null)?.name !== 'AbortError') {
          store.setState({ balanceRetryAt: now() + BALANCE_RETRY_LOCK_MS })
          params.showError(BALANCE_UNAVAILABLE)
        }
        throw error
      } finally {
        running--
        if (running === 0) store.setState({ balanceLoading: false })
      }
    },

    fetchHistory: async (query, init) => (await getClient()).getHistory(query, init),

    fetchIdentity(address, sender) {
      const key = address.toLowerCase()
      const cached = identities.get(key)
      if (cached && now() - cached.at < ACCOUNT_CACHE_MS.identity) return cached.value
      const value = getClient()
        .then((c) => c.getIdentity({ address, sender }))
        .catch(() => {
          // A failed lookup is not cached, so the next view asks again.
          identities.delete(key)
          return blankIdentity
        })
      identities.set(key, { at: now(), value })
      return value
    },

    notifyTransaction(transaction) {
      const caip = transaction.caipNetworkId ?? `eip155:${transaction.chainId}`
      const set = forceUpdate.get(caip) ?? new Set<string>()
      for (const token of transaction.tokens) set.add(token)
      forceUpdate.set(caip, set)
      // The visitor's own send is exactly when fresh balances are wanted: drop the lock.
      store.setState((s) => ({ transactionCount: s.transactionCount + 1, balanceRetryAt: undefined }))
      for (const listener of [...listeners]) {
        try {
          listener(transaction)
        } catch (error) {
          console.error('[latch] transaction listener failed', error)
        }
      }
    },

    onTransaction(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },

    takeForceUpdate(caipNetworkId) {
      const set = forceUpdate.get(caipNetworkId)
      forceUpdate.delete(caipNetworkId)
      return set ? [...set] : []
    },
  }
}
