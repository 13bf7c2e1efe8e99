// A scripted Wallet Standard Solana wallet for the adapter's tests.
import type { StandardAccount, StandardWallet } from '../walletStandard'

/** The wallet's account (dev account #0 of the Solana dev network). */
export const address = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'

const localChain = 'solana:HQ2bJg89gcM1yyS9v27XxUxWLXzcssKs'

/** A scripted Wallet Standard Solana wallet sharing the account `of`; `authorized` decides silent connects. */
export function fakeSolanaWallet(name = 'Phantomish', of = address) {
  const account: StandardAccount = { address: of, publicKey: new Uint8Array(32), chains: ['solana:mainnet', localChain], features: ['solana:signAndSendTransaction'] }
  const calls: { method: string; input?: unknown }[] = []
  const listeners = new Set<(p: { accounts: readonly StandardAccount[] }) => void>()
  let accounts: StandardAccount[] = []
  const state = { authorized: false, reject: false }
  const wallet: StandardWallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,',
    chains: ['solana:mainnet', 'solana:devnet'],
    get accounts() {
      return accounts
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input?: { silent?: boolean }) {
          calls.push({ method: 'connect', input })
          if (state.reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          if (!input?.silent) state.authorized = true
          accounts = state.authorized ? [account] : []
          return { accounts }
        },
      },
      'standard:disconnect': { version: '1.0.0', disconnect: async () => void calls.push({ method: 'disconnect' }) },
      'standard:events': { version: '1.0.0', on: (_e: string, l: (p: { accounts: readonly StandardAccount[] }) => void) => (listeners.add(l), () => listeners.delete(l)) },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(...inputs: { transaction: Uint8Array; chain: string; options?: Record<string, unknown> }[]) {
          calls.push({ method: 'signAndSendTransaction', input: inputs })
          return inputs.map(() => ({ signature: new Uint8Array(64).fill(7) }))
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        async signMessage(...inputs: { message: Uint8Array }[]) {
          calls.push({ method: 'signMessage', input: inputs })
          return inputs.map((i) => ({ signedMessage: i.message, signature: new Uint8Array(64).fill(9) }))
        },
      },
    },
  }
  return {
    wallet,
    calls,
    state,
    /** The wallet changes its account (standard:events 'change'). */
    switchAccount(to: string) {
      accounts = [{ ...account, address: to }]
      for (const l of listeners) l({ accounts })
    },
    /** The wallet stops sharing any account with the page (the visitor revoked it there). */
    dropAccounts() {
      accounts = []
      for (const l of listeners) l({ accounts })
    },
    /** Registers the wallet the way a wallet script does: now, and on every app-ready. */
    register(target: EventTarget) {
      const callback = ({ register }: { register: (w: StandardWallet) => () => void }) => void register(wallet)
      target.addEventListener('wallet-standard:app-ready', (e) => callback((e as CustomEvent).detail))
      target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
    },
  }
}

