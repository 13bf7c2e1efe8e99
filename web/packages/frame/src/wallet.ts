// The embedded wallet of one project in this browser: e-mail login against
// latchd, the session, and the key shares. It has no DOM: frame.ts wires it
// to the page's messages.
//
// Keys: on the first login a new entropy is split 2-of-3 (device share here,
// auth share and recovery share on latchd). On a new device the auth and
// recovery shares rebuild the entropy and a new device share is derived on
// the same split (shares.ts deriveShare), so the other devices keep working.
// Signing combines the device and auth shares, derives the key, signs and
// zeroes everything (keys.ts withKeys).
import { base64 } from '@scure/base'
import { RECOVERY_PASSWORD_REQUIRED, RECOVERY_PASSWORD_WRONG, type FrameUser } from '../../core/src/embedded/protocol'
import { AuthApiError, type AuthApi, type Session, type StoredRecovery } from './authApi'
import type { DeviceStore, StoredAddresses } from './deviceStore'
import type { Chain, WalletKeys } from './keys'
import type { PasswordBox } from './recovery'
import { createFarcasterLogin } from './farcaster'
import { challengeOf, newVerifier, PendingLogins, stateOf } from './social'

// The key code and the password recovery code (scrypt) are loaded when first
// needed (signer.ts): the frame reaches READY without them.
const signer = () => import('./signer')
const passwordRecovery = () => import('./recovery')

/** Refused when there is no live session (spec §8 "Session Expired"). */
export const SESSION_EXPIRED = 'Session expired'
/** CONNECT_OTP / CONNECT_DEVICE before CONNECT_EMAIL. */
export const NO_EMAIL_LOGIN = 'No e-mail login in progress'
/** The device approval link expired or was for another device. */
export const DEVICE_APPROVAL_EXPIRED = 'Device approval expired: please start again'
/** The shares do not rebuild the stored wallet. */
export const SHARES_MISMATCH = 'The key shares do not match this wallet'
/** CONNECT_SOCIAL with a result this frame did not start (or already used). */
export const NO_SOCIAL_LOGIN = 'No social login in progress for this result: please start again'
/** A redirect-mode return URL that is not a page of the embedding page's origin. */
export const SOCIAL_RETURN_URL = "returnUrl must be a page of the embedding page's origin"

/** onOrigin reports whether url is an http(s) URL on origin, without userinfo. */
function onOrigin(url: string, origin: string): boolean {
  try {
    const u = new URL(url)
    return u.origin === origin && !u.username && !u.password
  } catch {
    return false
  }
}
/** A wait ended by RPC_ABORT or sign-out. */
export const ABORTED = 'Request was aborted'

/** How often CONNECT_DEVICE asks latchd whether the device was approved (docs/auth-api.md: every 1–2 s). */
export const DEVICE_POLL_MS = 1500
/** An access token this close to its expiry is refreshed first. */
const REFRESH_MARGIN_MS = 30_000
const SESSION_SECRET = 'session'
/** The provider and the account's name there, of a session opened by a social login. */
const SOCIAL_SECRET = 'social'
/** A redirect-mode social login's state and PKCE verifier: the page reloads before CONNECT_SOCIAL, and this frame with it. */
const SOCIAL_REDIRECT_SECRET = 'socialRedirect'

/** What a wallet needs. */
export interface WalletDeps {
  readonly api: AuthApi
  readonly store: DeviceStore
  readonly projectId: string
  /** ms since epoch; Date.now by default. */
  readonly now?: () => number
  /** Waits ms or rejects when signal aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** scrypt cost of new password recovery boxes (tests lower it). */
  readonly scryptCost?: { logN: number; r: number; p: number }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(ABORTED))
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(t)
      reject(new Error(ABORTED))
    })
  })
}

/** createWallet makes the wallet of deps.projectId. */
export function createWallet(deps: WalletDeps) {
  const { api, store, projectId } = deps
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? defaultSleep
  let pending: { email: string; requestId?: string } | undefined
  let session: Session | undefined
  let sessionLoaded = false
  // The auth share of the signed-in user, kept in the frame's memory for the
  // session: alone it reveals nothing, and the frame can use the device share
  // anyway. Dropped on sign-out.
  let authShare: Uint8Array | undefined
  let addresses: StoredAddresses | undefined
  // The PKCE verifiers of the social logins started here (never leave the frame).
  const socialLogins = new PendingLogins()

  const deviceId = () => store.deviceId(projectId)
  const farcaster = createFarcasterLogin({ api, deviceId, sleep })

  async function saveSession(s: Session | undefined): Promise<void> {
    if (session?.user.id !== s?.user.id) {
      authShare?.fill(0)
      authShare = undefined
      addresses = undefined
    }
    session = s
    sessionLoaded = true
    if (s) await store.putSecret(projectId, SESSION_SECRET, s)
    else await store.deleteSecret(projectId, SESSION_SECRET)
  }

  async function currentSession(): Promise<Session | undefined> {
    if (!sessionLoaded) {
      session = (await store.getSecret(projectId, SESSION_SECRET)) as Session | undefined
      sessionLoaded = true
    }
    return session
  }

  /** accessToken returns a live access token, refreshing it when near expiry; undefined when signed out. */
  async function accessToken(): Promise<string | undefined> {
    const s = await currentSession()
    if (!s) return undefined
    if (Date.parse(s.accessTokenExpiresAt) - REFRESH_MARGIN_MS > now()) return s.accessToken
    if (Date.parse(s.refreshTokenExpiresAt) <= now()) {
      await saveSession(undefined)
      return undefined
    }
    try {
      const fresh = await api.refresh(s.refreshToken, await deviceId())
      await saveSession(fresh)
      return fresh.accessToken
    } catch (e) {
      if (e instanceof AuthApiError && (e.status === 401 || e.status === 403)) {
        await saveSession(undefined)
        return undefined
      }
      throw e
    }
  }

  async function requireToken(): Promise<{ token: string; session: Session }> {
    const token = await accessToken()
    if (!token || !session) throw new Error(SESSION_EXPIRED)
    return { token, session }
  }

  async function fetchAuthShare(token: string): Promise<Uint8Array> {
    if (!authShare) authShare = base64.decode((await api.fetchShares(token, await deviceId(), false)).authShare)
    return authShare
  }

  /** createKeys makes, splits and stores a new wallet. */
  async function createKeys(token: string, userId: string, recoveryPassword: string | undefined): Promise<StoredAddresses> {
    const { addressesOf, newEntropy, splitEntropy } = await signer()
    const entropy = newEntropy()
    try {
      const shares = await splitEntropy(entropy)
      const addrs = await addressesOf(entropy)
      let recovery: StoredRecovery
      if (recoveryPassword) {
        const { sealWithPassword, DEFAULT_SCRYPT } = await passwordRecovery()
        const { ciphertext, ...kdf } = await sealWithPassword(shares.recovery, recoveryPassword, deps.scryptCost ?? DEFAULT_SCRYPT)
        recovery = { mode: 'password', ciphertext, kdf }
      } else {
        recovery = { mode: 'operator', share: base64.encode(shares.recovery) }
      }
      await api.putShares(token, { deviceId: await deviceId(), authShare: base64.encode(shares.auth), recovery })
      await store.putShare(projectId, userId, shares.device, addrs)
      authShare = shares.auth
      shares.device.fill(0)
      shares.recovery.fill(0)
      return addrs
    } finally {
      entropy.fill(0)
    }
  }

  /** recoverKeys rebuilds the wallet on a new device from the auth and recovery shares. */
  async function recoverKeys(token: string, userId: string, recoveryPassword: string | undefined): Promise<StoredAddresses> {
    const { addressesOf, combineShares, deriveShare } = await signer()
    const stored = await api.fetchShares(token, await deviceId(), true)
    const auth = base64.decode(stored.authShare)
    if (!stored.recovery) throw new Error('latchd sent no recovery share')
    let recovery: Uint8Array
    if (stored.recovery.mode === 'operator') {
      recovery = base64.decode(stored.recovery.share)
    } else {
      if (!recoveryPassword) throw new Error(RECOVERY_PASSWORD_REQUIRED)
      const { openWithPassword, WrongPasswordError } = await passwordRecovery()
      try {
        recovery = await openWithPassword({ ...(stored.recovery.kdf as Omit<PasswordBox, 'ciphertext'>), ciphertext: stored.recovery.ciphertext }, recoveryPassword)
      } catch (e) {
        if (e instanceof WrongPasswordError) throw new Error(RECOVERY_PASSWORD_WRONG)
        throw e
      }
    }
    const entropy = await combineShares(auth, recovery)
    const device = await deriveShare(auth, recovery)
    try {
      const check = await combineShares(device, auth)
      const same = check.length === entropy.length && check.every((v, i) => v === entropy[i])
      check.fill(0)
      if (!same) throw new Error(SHARES_MISMATCH)
      const addrs = await addressesOf(entropy)
      await store.putShare(projectId, userId, device, addrs)
      authShare = auth
      return addrs
    } finally {
      entropy.fill(0)
      recovery.fill(0)
      device.fill(0)
    }
  }

  /** wallet returns the signed-in user's addresses, creating or recovering the keys on first use. */
  async function wallet(recoveryPassword?: string): Promise<{ session: Session; addresses: StoredAddresses }> {
    const { token, session: s } = await requireToken()
    if (addresses) return { session: s, addresses }
    const known = await store.addresses(projectId, s.user.id)
    if (known && (await store.getShare(projectId, s.user.id))) {
      addresses = known
      return { session: s, addresses }
    }
    try {
      await fetchAuthShare(token)
    } catch (e) {
      if (!(e instanceof AuthApiError && e.status === 404)) throw e
      try {
        addresses = await createKeys(token, s.user.id, recoveryPassword)
        return { session: s, addresses }
      } catch (e) {
        // Another device stored the wallet's shares first: recover that one.
        if (!(e instanceof AuthApiError && e.status === 409)) throw e
      }
    }
    addresses = await recoverKeys(token, s.user.id, recoveryPassword)
    return { session: s, addresses }
  }

  return {
    /** sessionToken is the live access token (refreshed near expiry), undefined when signed out: latchd's paymaster may ask for it. */
    sessionToken: accessToken,

    /** connectEmail starts an e-mail login (spec §4 action values); the mail is in the page's locale. */
    async connectEmail(email: string, locale?: string): Promise<{ action: 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT' }> {
      const token = await accessToken().catch(() => undefined)
      const r = await api.emailStart(email, await deviceId(), token, locale)
      pending = { email, ...(r.requestId ? { requestId: r.requestId } : {}) }
      return { action: r.action }
    },

    /** connectDevice waits until the device approval link is used, then asks for the code mail. */
    async connectDevice(signal?: AbortSignal): Promise<void> {
      if (!pending?.requestId) throw new Error(NO_EMAIL_LOGIN)
      const id = await deviceId()
      for (;;) {
        const { status } = await api.deviceStatus(pending.requestId, id)
        if (status === 'approved') break
        if (status === 'expired') throw new Error(DEVICE_APPROVAL_EXPIRED)
        await sleep(DEVICE_POLL_MS, signal)
      }
      const r = await api.emailStart(pending.email, id)
      pending = { email: pending.email }
      if (r.action === 'VERIFY_DEVICE') throw new Error(DEVICE_APPROVAL_EXPIRED)
    },

    /** connectOtp verifies the mailed code and starts the session. */
    async connectOtp(otp: string): Promise<void> {
      if (!pending) throw new Error(NO_EMAIL_LOGIN)
      await saveSession(await api.verify(pending.email, await deviceId(), otp))
      pending = undefined
      await store.deleteSecret(projectId, SOCIAL_SECRET)
    },

    /**
     * socialRedirectUri starts a social login for the page on parentOrigin:
     * a new PKCE verifier stays here, latchd gets its challenge and answers
     * the login's begin URL, which the page posts the popup (or itself) to.
     * returnUrl, in redirect mode, is the page's own URL as the page says it:
     * the frame reports it to latchd only when it is on the page's origin.
     */
    async socialRedirectUri(provider: string, parentOrigin: string, returnUrl?: string): Promise<{ uri: string }> {
      if (returnUrl !== undefined && !onOrigin(returnUrl, parentOrigin)) throw new Error(SOCIAL_RETURN_URL)
      const verifier = newVerifier()
      const { uri } = await api.socialStart({ provider, deviceId: await deviceId(), codeChallenge: await challengeOf(verifier), parentOrigin, ...(returnUrl ? { returnUrl } : {}) })
      const state = stateOf(uri)
      if (!state) throw new Error('latchd answered a provider URL without a state')
      socialLogins.add(state, verifier)
      // Redirect mode: the page (and this frame) reload before the result comes back; the verifier waits in the device store.
      if (returnUrl) await store.putSecret(projectId, SOCIAL_REDIRECT_SECRET, { state, verifier })
      return { uri }
    },

    /** connectSocial exchanges the popup's result URI, with its login's verifier, for a session. */
    async connectSocial(resultUri: string): Promise<{ provider: string; userName: string; email: string | null }> {
      const state = stateOf(resultUri)
      let verifier = state ? socialLogins.take(state) : undefined
      const redirected = (await store.getSecret(projectId, SOCIAL_REDIRECT_SECRET)) as { state?: string; verifier?: string } | undefined
      if (redirected && state && redirected.state === state) {
        verifier ??= redirected.verifier
        await store.deleteSecret(projectId, SOCIAL_REDIRECT_SECRET)
      }
      if (!verifier) throw new Error(NO_SOCIAL_LOGIN)
      const r = await api.socialConnect({ uri: resultUri, codeVerifier: verifier, deviceId: await deviceId() })
      pending = undefined
      await saveSession(r.session)
      await store.putSecret(projectId, SOCIAL_SECRET, { provider: r.provider, username: r.username })
      return { provider: r.provider, userName: r.username, email: r.session.user.email || null }
    },

    /** farcasterUri opens a Sign In With Farcaster channel for the page on parentOrigin (GET_FARCASTER_URI). */
    farcasterUri: (parentOrigin: string) => farcaster.uri(parentOrigin),

    /** connectFarcaster waits for the Farcaster client to complete the channel, then opens the session (CONNECT_FARCASTER). */
    async connectFarcaster(signal?: AbortSignal): Promise<{ userName: string }> {
      const r = await farcaster.connect(signal)
      pending = undefined
      await saveSession(r.session)
      await store.putSecret(projectId, SOCIAL_SECRET, { provider: 'farcaster', username: r.username })
      return { userName: r.username }
    },

    /** user returns the signed-in visitor, creating or recovering the wallet on first use. */
    async user(chainId: string | number, recoveryPassword?: string): Promise<FrameUser> {
      const w = await wallet(recoveryPassword)
      const social = (await store.getSecret(projectId, SOCIAL_SECRET)) as { username?: string } | undefined
      return {
        email: w.session.user.email || null,
        ...(social?.username ? { userName: social.username } : {}),
        address: w.addresses.evm,
        chainId,
        accounts: [{ address: w.addresses.evm, type: 'eoa' }],
        solanaAddress: w.addresses.solana,
        preferredAccountType: 'eoa',
        smartAccountDeployed: false,
      }
    },

    /** isConnected reports whether a live session exists (latchd confirms it). */
    async isConnected(): Promise<boolean> {
      const token = await accessToken()
      if (!token) return false
      try {
        await api.me(token)
        return true
      } catch (e) {
        if (e instanceof AuthApiError && e.status === 401) {
          await saveSession(undefined)
          return false
        }
        throw e
      }
    },

    /**
     * withKeys runs fn with the signed-in wallet's private keys of chains
     * (both by default; the other key is empty): the device and auth shares
     * are combined, the keys derived and checked against the wallet's
     * addresses, and everything is zeroed when fn returns.
     */
    async withKeys<T>(fn: (keys: WalletKeys) => Promise<T> | T, chains?: readonly Chain[]): Promise<T> {
      const { CHAINS, combineShares, withKeys } = await signer()
      const asked = chains ?? CHAINS
      const { token, session: s } = await requireToken()
      const { addresses: addrs } = await wallet()
      const device = await store.getShare(projectId, s.user.id)
      if (!device) throw new Error(SESSION_EXPIRED)
      const auth = await fetchAuthShare(token)
      const entropy = await combineShares(device, auth).finally(() => device.fill(0))
      try {
        return await withKeys(
          entropy,
          (keys, derived) => {
            if (asked.some((c) => derived[c] !== addrs[c])) throw new Error(SHARES_MISMATCH)
            return fn(keys)
          },
          asked,
        )
      } finally {
        entropy.fill(0)
      }
    },

    /** addresses returns the signed-in wallet's addresses. */
    async addresses(): Promise<StoredAddresses> {
      return (await wallet()).addresses
    },

    async updateEmail(email: string, locale?: string) {
      return api.changeEmail((await requireToken()).token, email, locale)
    },
    async updateEmailPrimary(otp: string, locale?: string): Promise<void> {
      await api.changeEmailPrimary((await requireToken()).token, otp, locale)
    },
    async updateEmailSecondary(otp: string): Promise<{ newEmail: string }> {
      const r = await api.changeEmailSecondary((await requireToken()).token, otp, await deviceId())
      await saveSession(r.session)
      return { newEmail: r.newEmail }
    },

    /** registerName posts a name registration the wallet signed, with the session latchd requires for it (spec §5). */
    async registerName(registration: Parameters<AuthApi['registerName']>[1]): Promise<unknown> {
      return api.registerName((await requireToken()).token, registration)
    },

    /** signOut ends the session on latchd and here; the device share stays, so the next login needs no recovery. */
    async signOut(): Promise<void> {
      const s = await currentSession()
      pending = undefined
      socialLogins.clear()
      farcaster.clear()
      await store.deleteSecret(projectId, SOCIAL_SECRET)
      try {
        if (s) await api.revoke(s.accessToken, s.sessionId).catch(() => undefined)
      } finally {
        await saveSession(undefined)
      }
    },
  }
}

/** A wallet createWallet makes. */
export type Wallet = ReturnType<typeof createWallet>
