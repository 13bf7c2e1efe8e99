// Test doubles: a scripted EIP-1193 wallet that announces itself over EIP-6963
// on a fake `window` (Node has EventTarget and CustomEvent built in).
import { type Address, getAddress, numberToHex } from 'viem'

/** Well-known dev accounts (anvil's first two keys). */
export const alice: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const bob: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d6dc79c8')

/** A 1×1 SVG data URI, the kind of icon EIP-6963 wallets announce. */
export const walletIcon = 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E'

type Listener = (payload: unknown) => void

/** Options of {@link createFakeWallet}. */
export interface FakeWalletOptions {
  rdns?: string
  name?: string
  accounts?: Address[]
  chainId?: number
  /** Already authorised for this site, as after a previous connect (a page reload). */
  authorized?: boolean
}

/** A scripted injected wallet. */
export interface FakeWallet {
  readonly rdns: string
  /** Every JSON-RPC method the page called, in order. */
  readonly calls: string[]
  readonly provider: {
    request(args: { method: string; params?: unknown }): Promise<unknown>
    on(event: string, listener: Listener): void
    removeListener(event: string, listener: Listener): void
  }
  /** Make the next connect prompt fail with this error (e.g. `{ code: 4001, … }`). */
  failNextPrompt(error: unknown): void
  /** Lock the wallet: eth_accounts returns []. */
  lock(): void
  /** Emit an EIP-1193 event as the extension would. */
  emit(event: 'accountsChanged' | 'chainChanged' | 'disconnect', payload: unknown): void
  setAccounts(accounts: Address[]): void
  setChainId(chainId: number): void
  /** Dispatch the EIP-6963 announcement on `window` and answer later requests. */
  announce(): void
}

/** Creates a {@link FakeWallet}. */
export function createFakeWallet(options: FakeWalletOptions = {}): FakeWallet {
  const rdns = options.rdns ?? 'io.latch.testwallet'
  const name = options.name ?? 'Test Wallet'
  let accounts = options.accounts ?? [alice]
  let chainId = options.chainId ?? 1
  let authorized = options.authorized ?? false
  let promptError: unknown
  const calls: string[] = []
  const listeners = new Map<string, Set<Listener>>()

  const emit = (event: string, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(payload)
  }
  const prompt = () => {
    if (promptError !== undefined) {
      const error = promptError
      promptError = undefined
      throw error
    }
    authorized = true
  }

  const provider: FakeWallet['provider'] = {
    async request({ method, params }) {
      calls.push(method)
      switch (method) {
        case 'eth_accounts':
          return authorized ? accounts.map((a) => a.toLowerCase()) : []
        case 'eth_requestAccounts':
          prompt()
          return accounts.map((a) => a.toLowerCase())
        case 'wallet_requestPermissions':
          prompt()
          return [{ parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: accounts }] }]
        case 'wallet_revokePermissions':
          authorized = false
          return null
        case 'eth_chainId':
          return numberToHex(chainId)
        case 'wallet_switchEthereumChain': {
          const [{ chainId: hex }] = params as [{ chainId: string }]
          chainId = Number(hex)
          emit('chainChanged', hex)
          return null
        }
        default:
          throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 })
      }
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }

  const detail = Object.freeze({
    info: { uuid: `uuid-${rdns}`, name, icon: walletIcon, rdns },
    provider,
  })

  return {
    rdns,
    calls,
    provider,
    failNextPrompt: (error) => void (promptError = error),
    lock: () => void (authorized = false),
    emit,
    setAccounts: (next) => void (accounts = next),
    setChainId: (next) => void (chainId = next),
    announce() {
      const target = globalThis.window as unknown as EventTarget
      const event = () => new CustomEvent('eip6963:announceProvider', { detail })
      target.dispatchEvent(event())
      target.addEventListener('eip6963:requestProvider', () => target.dispatchEvent(event()))
    },
  }
}

/**
 * Installs a bare `window` (an EventTarget) on globalThis, as a browser page
 * would have; returns the function that removes it.
 */
export function installFakeWindow(): () => void {
  const scope = globalThis as { window?: unknown }
  const previous = scope.window
  scope.window = new EventTarget()
  return () => {
    if (previous === undefined) delete scope.window
    else scope.window = previous
  }
}
