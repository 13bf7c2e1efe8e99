// An in-memory stand-in for latchd's /auth/v1 routes, following
// docs/auth-api.md, for the frame's unit tests in Node. The browser tests run
// the frame against a real latchd.
import type { AuthApi, Session, StoredRecovery } from '../authApi'
import { AuthApiError } from '../authApi'

interface User {
  id: string
  email: string
  knownDevices: Set<string>
  shares?: { authShare: string; recovery: StoredRecovery }
}

/** fakeLatchd returns an AuthApi over in-memory state, and that state. */
export function fakeLatchd(opts: { allowedOrigins?: string[]; approveAfterPolls?: number; accessTokenTTL?: number; now?: () => number } = {}) {
  const now = opts.now ?? Date.now
  const users = new Map<string, User>()
  const sessions = new Map<string, { user: User; deviceId: string; fresh: boolean; refreshToken: string; expires: number }>()
  const approvals = new Map<string, { deviceId: string; email: string; polls: number }>()
  const codes = new Map<string, string>() // email → code
  const calls: string[] = []
  const rpcCalls: { network: string; method: string; params: unknown }[] = []
  /** The name registrations posted, with the user whose session came with them. */
  const registrations: { userId: string; coinType: number; address: string; message: string; signature: string }[] = []
  let n = 0
  const fail = (status: number, code: string, message: string): never => {
    throw new AuthApiError(message, status, code)
  }
  const session = (token: string | undefined) => {
    const s = sessions.get(token ?? '')
    return s && s.expires > now() ? s : fail(401, 'unauthorized', 'Session expired')
  }
  const userOf = (email: string) => {
    let u = users.get(email)
    if (!u) users.set(email, (u = { id: `user-${++n}`, email, knownDevices: new Set() }))
    return u
  }
  const issue = (user: User, deviceId: string, ttl = 3600_000): Session => {
    const accessToken = `at-${++n}`
    const refreshToken = `rt-${n}`
    const expires = now() + ttl
    sessions.set(accessToken, { user, deviceId, fresh: true, refreshToken, expires })
    const far = new Date(now() + 30 * 86400_000).toISOString()
    return { sessionId: accessToken, accessToken, accessTokenExpiresAt: new Date(expires).toISOString(), refreshToken, refreshTokenExpiresAt: far, user: { id: user.id, email: user.email } }
  }

  // Social logins started (by state) and the person each provider login will name.
  const socialFlows = new Map<string, { provider: string; deviceId: string; challenge: string; used: boolean }>()
  const socialPerson = { subject: 'g-1', email: 'visitor@example.com', verified: true, username: 'visitor' }
  const sha256url = async (v: string) => {
    const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(v)))
    return btoa(String.fromCharCode(...d)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  }

  // Farcaster channels by token; a test completes one as the Farcaster client would (completeFarcaster).
  const farcasterChannels = new Map<string, { deviceId: string; challenge: string; fid?: number; username?: string; used: boolean }>()
  const completeFarcaster = (token: string, fid: number, username: string) => {
    const c = farcasterChannels.get(token) ?? fail(401, 'unauthorized', 'Unknown Farcaster channel: please start again')
    c.fid = fid
    c.username = username
  }

  const api: AuthApi = {
    async farcasterChannel({ deviceId, codeChallenge, parentOrigin }) {
      calls.push('farcasterChannel')
      if (!(opts.allowedOrigins ?? ['https://app.example']).includes(parentOrigin)) fail(403, 'forbidden', `Origin not allowed: ${parentOrigin}`)
      const channelToken = `channel-${++n}`
      farcasterChannels.set(channelToken, { deviceId, challenge: codeChallenge, used: false })
      const url = `farcaster://connect?channelToken=${channelToken}&nonce=n${n}&domain=${new URL(parentOrigin).host}`
      return { channelToken, url, nonce: `n${n}`, expiresAt: new Date(now() + 600_000).toISOString() }
    },
    async farcasterStatus({ channelToken, deviceId }) {
      calls.push('farcasterStatus')
      const c = farcasterChannels.get(channelToken) ?? fail(401, 'unauthorized', 'Unknown Farcaster channel: please start again')
      if (c.deviceId !== deviceId) fail(403, 'forbidden', 'This Farcaster sign-in was started on another device')
      if (c.used) fail(400, 'invalid', 'This Farcaster sign-in was already used: please start again')
      return { state: c.fid ? ('completed' as const) : ('pending' as const) }
    },
    async farcasterConnect({ channelToken, codeVerifier, deviceId }) {
      calls.push('farcasterConnect')
      const c = farcasterChannels.get(channelToken) ?? fail(401, 'unauthorized', 'Unknown Farcaster channel: please start again')
      if (c.used) fail(400, 'invalid', 'This Farcaster sign-in was already used: please start again')
      if (!c.fid) fail(400, 'invalid', 'The Farcaster sign-in is not completed yet')
      c.used = true
      if (c.deviceId !== deviceId) fail(403, 'forbidden', 'This Farcaster sign-in was started on another device')
      if ((await sha256url(codeVerifier)) !== c.challenge) fail(400, 'invalid', 'The PKCE code verifier does not match this social login')
      const u = userOf(`social:farcaster:${c.fid}`)
      u.knownDevices.add(deviceId)
      const s = issue(u, deviceId)
      return { session: { ...s, user: { id: u.id, email: '' } }, provider: 'farcaster', username: c.username ?? '' }
    },
    async socialStart({ provider, deviceId, codeChallenge, parentOrigin, returnUrl }) {
      calls.push('socialStart')
      if (!['google', 'github', 'apple', 'facebook', 'x', 'discord'].includes(provider)) fail(400, 'invalid', 'Social provider must be google, github, apple, facebook, x or discord')
      if (!(opts.allowedOrigins ?? ['https://app.example']).includes(parentOrigin)) fail(403, 'forbidden', `Origin not allowed: ${parentOrigin}`)
      const state = `state-${++n}`
      if (returnUrl !== undefined && new URL(returnUrl).origin !== parentOrigin) fail(400, 'invalid', `returnUrl must be a page of parentOrigin ${parentOrigin}`)
      socialFlows.set(state, { provider, deviceId, challenge: codeChallenge, used: false })
      // latchd answers the login's begin URL on the frame origin (the page posts the popup there).
      return { uri: `https://frame.example/auth/v1/social/begin?state=${state}` }
    },
    async socialConnect({ uri, codeVerifier, deviceId }) {
      calls.push('socialConnect')
      const state = new URL(uri).searchParams.get('state') ?? ''
      const f = socialFlows.get(state) ?? fail(400, 'invalid', 'Invalid social login state: please start again')
      if (f.used) fail(400, 'invalid', 'This social login was already used: please start again')
      f.used = true
      if (f.deviceId !== deviceId) fail(403, 'forbidden', 'This social login was started on another device')
      if ((await sha256url(codeVerifier)) !== f.challenge) fail(400, 'invalid', 'The PKCE code verifier does not match this social login')
      const u = userOf(socialPerson.verified ? socialPerson.email : `social:${f.provider}:${socialPerson.subject}`)
      u.knownDevices.add(deviceId)
      const s = issue(u, deviceId)
      return { session: { ...s, user: { id: u.id, email: socialPerson.verified ? u.email : '' } }, provider: f.provider, username: socialPerson.username }
    },
    async origins() {
      calls.push('origins')
      return { allowedOrigins: opts.allowedOrigins ?? ['https://app.example'], localOrigins: false }
    },
    async emailStart(email, deviceId, token) {
      calls.push('emailStart')
      const u = userOf(email)
      const s = token ? sessions.get(token) : undefined
      if (s && s.user === u && s.deviceId === deviceId) return { action: 'CONNECT' as const }
      if (u.knownDevices.has(deviceId)) {
        codes.set(email, '123456')
        return { action: 'VERIFY_OTP' as const }
      }
      const requestId = `req-${++n}`
      approvals.set(requestId, { deviceId, email, polls: 0 })
      return { action: 'VERIFY_DEVICE' as const, requestId }
    },
    async deviceStatus(requestId, deviceId) {
      calls.push('deviceStatus')
      const a = approvals.get(requestId)
      if (!a || a.deviceId !== deviceId) return { status: 'expired' as const }
      if (++a.polls < (opts.approveAfterPolls ?? 1)) return { status: 'pending' as const }
      userOf(a.email).knownDevices.add(deviceId)
      return { status: 'approved' as const }
    },
    async verify(email, deviceId, otp) {
      calls.push('verify')
      if (codes.get(email) !== otp) fail(400, 'invalid', 'Invalid or expired code')
      codes.delete(email)
      return issue(userOf(email), deviceId, opts.accessTokenTTL)
    },
    async refresh(refreshToken, deviceId) {
      calls.push('refresh')
      const old = [...sessions.entries()].find(([, s]) => s.refreshToken === refreshToken && s.deviceId === deviceId)
      if (!old) return fail(401, 'unauthorized', 'Session expired')
      sessions.delete(old[0])
      return issue(old[1].user, deviceId, opts.accessTokenTTL)
    },
    async me(token) {
      const s = session(token)
      return { user: { id: s.user.id, email: s.user.email }, sessionId: token }
    },
    async revoke(token, sessionId) {
      calls.push('revoke')
      session(token)
      sessions.delete(sessionId)
      return { revoked: true }
    },
    async putShares(token, body) {
      calls.push('putShares')
      const s = session(token)
      if (s.deviceId !== body.deviceId) fail(403, 'forbidden', 'wrong device')
      if (s.user.shares && !body.replace) fail(409, 'conflict', 'Key shares are already stored')
      s.user.shares = { authShare: body.authShare, recovery: body.recovery }
      return { stored: true }
    },
    async fetchShares(token, deviceId, includeRecovery) {
      calls.push(includeRecovery ? 'fetchShares+recovery' : 'fetchShares')
      const s = session(token)
      if (s.deviceId !== deviceId) fail(403, 'forbidden', 'wrong device')
      const shares = s.user.shares ?? fail(404, 'not_found', 'No key shares stored')
      if (includeRecovery && !s.fresh) fail(403, 'forbidden', 'A fresh login is required')
      return includeRecovery ? shares : { authShare: shares.authShare }
    },
    async changeEmail() {
      return { action: 'VERIFY_PRIMARY_OTP' as const }
    },
    async changeEmailPrimary() {
      return { action: 'VERIFY_SECONDARY_OTP' as const }
    },
    async changeEmailSecondary() {
      return fail(400, 'invalid', 'Invalid or expired code')
    },
    async registerName(token, r) {
      calls.push('registerName')
      const s = session(token)
      registrations.push({ userId: s.user.id, ...r })
      const { name } = JSON.parse(r.message) as { name: string }
      const at = new Date(now()).toISOString()
      return { name, registered_at: at, updated_at: at, attributes: {}, addresses: { '60': { address: r.address, created_at: at } } }
    },
    async rpc(network, method, params) {
      rpcCalls.push({ network, method, params })
      if (method === 'eth_blockNumber') return '0x2a'
      throw new AuthApiError(`no ${method} here`, 400, 'invalid')
    },
  }
  return { api, users, sessions, calls, rpcCalls, registrations, socialFlows, socialPerson, farcasterChannels, completeFarcaster }
}
