// latchSiwx(): a ready SIWXConfig backed by latchd's sign-in routes. Only
// this factory is in core's entry (and only on pages that import it); the
// client, its schemas and the message writer load on the first call.
import type { KeyValueStorage } from '../storage'
import type { SIWXConfig } from '../siwx'
import type { LatchSiwxBackend } from './backend'
import { loadLazy } from '../loadLazy'

/** Options of latchSiwx(). */
export interface LatchSiwxOptions {
  /** Sign-in is required: SIWXSignMessage cannot be closed and cancelling it disconnects (default false). */
  readonly required?: boolean
  /** Disconnecting the wallet signs out (revokes the session on latchd) (default true). */
  readonly signOutOnDisconnect?: boolean
  /** The message's one-line statement (default none). */
  readonly statement?: string
  /** Seconds until the message's Expiration Time (default none: latchd's session lifetime applies). */
  readonly expiresIn?: number
  /** The message's domain (default: the page's host, which latchd checks against the project's origins). */
  readonly domain?: string
  /** The message's URI (default: the page's origin). */
  readonly uri?: string
  /** latchd's URL and the project, when this config is used outside a Latch instance (default: the instance's). */
  readonly apiUrl?: string
  readonly projectId?: string
  /** Where session tokens are kept (default: the instance's storage, localStorage in a browser). */
  readonly storage?: KeyValueStorage
}

/** What the sign-in flow gives latchSiwx from its instance. */
export interface LatchSiwxContext {
  readonly apiUrl: string
  readonly projectId: string | undefined
  readonly sdkVersion: string
  readonly storage: KeyValueStorage
}

/** The SIWXConfig latchSiwx() returns: sessions live on latchd, their bearer tokens in storage. */
export interface LatchSIWXConfig extends SIWXConfig {
  readonly signOutOnDisconnect: boolean
  getRequired(): boolean
  /** Called by the sign-in flow of the instance the config is given to; options set explicitly win. */
  bindLatch(context: LatchSiwxContext): void
}

/** latchSiwx makes a SIWXConfig whose nonces, verification and sessions are latchd's (`options.siwx: latchSiwx()`). */
export function latchSiwx(options: LatchSiwxOptions = {}): LatchSIWXConfig {
  let context: LatchSiwxContext | undefined
  let backend: Promise<LatchSiwxBackend> | undefined
  const load = (): Promise<LatchSiwxBackend> =>
    (backend ??= loadLazy().then((l) => l.siwxBackend())
      .then((m) => m.createLatchSiwxBackend(options, context))
      .catch((error: unknown) => {
        backend = undefined
        throw error
      }))
  return {
    signOutOnDisconnect: options.signOutOnDisconnect ?? true,
    getRequired: () => options.required ?? false,
    bindLatch(next) {
      context ??= next
    },
    createMessage: async (input) => (await load()).createMessage(input),
    addSession: async (session) => (await load()).addSession(session),
    revokeSession: async (chainId, address) => (await load()).revokeSession(chainId, address),
    setSessions: async (sessions) => (await load()).setSessions(sessions),
    getSessions: async (chainId, address) => (await load()).getSessions(chainId, address),
  }
}
