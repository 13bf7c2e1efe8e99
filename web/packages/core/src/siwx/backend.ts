// latchSiwx()'s implementation (a lazy chunk): nonces from latchd, the
// message text, sessions stored on latchd through authenticate, and their
// bearer tokens kept in storage per account so a reload stays signed in.
import { LATCH_VERSION } from '../apiBase'
import type { SIWXConfig, SIWXMessage, SIWXSession } from '../siwx'
import { createSiwxClient, sessionOf, SiwxRequestError } from './client'
import type { LatchSiwxContext, LatchSiwxOptions } from './latchSiwx'
import { createSiwxMessage, messageDataOf } from './message'

/** The methods of latchSiwx() that talk to latchd. */
export type LatchSiwxBackend = Pick<SIWXConfig, 'createMessage' | 'addSession' | 'revokeSession' | 'setSessions' | 'getSessions'>

/** At most this many nonces wait for their signature; older ones are forgotten (latchd expires them after 5 minutes). */
const MAX_PENDING_NONCES = 8

/** Messages of latchSiwx's own refusals. */
export const LATCH_SIWX_MESSAGES = {
  noApi: 'latchSiwx() needs latchd: pass it as options.siwx of createLatch, or give it apiUrl and projectId',
  unknownNonce: 'This sign-in message was not created by latchSiwx(): its nonce is unknown or already used',
} as const

function memoryStorage(): LatchSiwxContext['storage'] {
  const items = new Map<string, string>()
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) }
}

/** The key of an account's token: eip155 addresses are case-insensitive, Solana's are not. */
function accountKey(chainId: string, address: string): string {
  return `${chainId}:${chainId.startsWith('eip155:') ? address.toLowerCase() : address}`
}

/** createLatchSiwxBackend binds latchSiwx()'s options to latchd (explicit options first, then the instance's). */
export function createLatchSiwxBackend(options: LatchSiwxOptions, context: LatchSiwxContext | undefined): LatchSiwxBackend {
  const apiUrl = options.apiUrl ?? context?.apiUrl
  const projectId = options.projectId ?? context?.projectId
  if (!apiUrl) throw new Error(LATCH_SIWX_MESSAGES.noApi)
  const client = createSiwxClient({ apiUrl, projectId, sdkVersion: context?.sdkVersion ?? `react-${LATCH_VERSION}` })
  const storage = options.storage ?? context?.storage ?? memoryStorage()
  const storageKey = `latch:siwx:${projectId ?? ''}`
  /** Nonce → the token that spends it, for messages created and not yet signed. */
  const pending = new Map<string, string>()

  const tokens = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? '{}')
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {}
    } catch {
      return {}
    }
  }
  const setToken = (key: string, token: string | undefined): void => {
    const next = { ...tokens() }
    if (token === undefined) delete next[key]
    else next[key] = token
    if (Object.keys(next).length === 0) storage.removeItem(storageKey)
    else storage.setItem(storageKey, JSON.stringify(next))
  }
  const signOut = async (token: string): Promise<void> => {
    try {
      await client.signOut(token)
    } catch (error) {
      // A token latchd no longer accepts is signed out already.
      if (!(error instanceof SiwxRequestError && error.status === 401)) throw error
    }
  }

  const backend: LatchSiwxBackend = {
    async createMessage({ accountAddress, chainId }): Promise<SIWXMessage> {
      const { nonce, token } = await client.nonce()
      pending.set(nonce, token)
      while (pending.size > MAX_PENDING_NONCES) pending.delete(pending.keys().next().value!)
      const issuedAt = new Date()
      const page = typeof location === 'undefined' ? undefined : location
      return createSiwxMessage({
        accountAddress,
        chainId,
        domain: options.domain ?? page?.host ?? '',
        uri: options.uri ?? page?.origin ?? '',
        version: '1',
        nonce,
        ...(options.statement ? { statement: options.statement } : {}),
        issuedAt: issuedAt.toISOString(),
        ...(options.expiresIn ? { expirationTime: new Date(issuedAt.getTime() + options.expiresIn * 1000).toISOString() } : {}),
      })
    },
    async addSession(session: SIWXSession) {
      const nonceToken = pending.get(session.data.nonce)
      if (!nonceToken) throw new Error(LATCH_SIWX_MESSAGES.unknownNonce)
      pending.delete(session.data.nonce)
      const { chainId, accountAddress } = session.data
      const token = await client.authenticate(nonceToken, {
        message: session.message,
        signature: session.signature,
        data: { chainId, accountAddress },
      })
      setToken(accountKey(chainId, accountAddress), token)
    },
    async getSessions(chainId, address) {
      const key = accountKey(chainId, address)
      const token = tokens()[key]
      if (!token) return []
      try {
        const list = await client.sessions(token)
        return list.filter((s) => s.active && accountKey(s.data.chainId, s.data.accountAddress) === key).map((s) => sessionOf(s))
      } catch (error) {
        // latchd refused the stored token (revoked, ended): forget it, and say so — the flow's startup check
        // disconnects with an error (spec §4) rather than treating it as never signed in.
        if (error instanceof SiwxRequestError && error.status === 401) setToken(key, undefined)
        throw error
      }
    },
    async revokeSession(chainId, address) {
      const key = accountKey(chainId, address)
      const token = tokens()[key]
      if (!token) return
      await signOut(token)
      setToken(key, undefined)
    },
    async setSessions(sessions) {
      if (sessions.length > 0) {
        for (const session of sessions) await backend.addSession({ ...session, data: messageDataOf(session.data) })
        return
      }
      for (const [key, token] of Object.entries(tokens())) {
        await signOut(token)
        setToken(key, undefined)
      }
    },
  }
  return backend
}
