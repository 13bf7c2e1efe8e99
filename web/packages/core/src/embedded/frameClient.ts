// The page's side of the embedded-wallet frame: it creates the hidden iframe
// (spec §2), waits for READY, sends requests and matches the answers by id,
// times out loading (20 s) and connect calls (30 s), aborts what is open
// (safe RPC requests excepted, spec §4), and relays the frame's approval
// requests to the page's ApproveTransaction view, which shows the frame
// itself over the modal (place): the visitor approves in the frame, and the
// page gets only the request's result.
//
// Framework-free and not exported from @latchkit/core's entry yet: the
// embedded connector and EIP-1193 provider will build on it.
import { globalTimers, type TimerHandle, type Timers } from '../timers'
import { browserStorage, type KeyValueStorage } from '../storage'
import {
  APP_EVENT_PREFIX,
  CONNECT_EVENTS,
  FRAME_ERROR_FALLBACK,
  FRAME_EVENT_PREFIX,
  frameSearchParams,
  isSafeRpcMethod,
  NO_LOAD_TIMEOUT_EVENTS,
  parseFrameEvent,
  type AppEventName,
  type AppPayload,
  type ApprovalRequest,
  type FrameResult,
} from './protocol'
import { createSolanaWallet } from './solanaWallet'
import { clearEmbeddedStorage, EMBEDDED_STORAGE_KEYS, storedAccountType, type EmbeddedAccountType } from './storageKeys'
import {
  FRAME_READY_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_REQUEST_TIMEOUT_MS,
  FRAME_SIGN_OUT_WAIT_MS,
  EMAIL_LOGIN_COOLDOWN_MS,
  FRAME_LOAD_FAILED_MESSAGE,
  RPC_ABORTED_MESSAGE,
  REQUEST_ABORTED_MESSAGE,
  FRAME_NOT_SET_MESSAGE,
  DEVICE_APPROVAL_TIMEOUT_MS,
  FARCASTER_EXPIRED_MESSAGE,
  DEVICE_APPROVAL_EXPIRED_MESSAGE,
  EMBEDDED_CONNECTOR_NAME,
} from './timings'

// The timings and messages live in a file of their own (the widget's first load
// reads them without loading this client); they stay importable from here.
export * from './timings'

/** Why the client gave up waiting (spec §8 alerts IFRAME_LOAD_FAILED, IFRAME_REQUEST_TIMEOUT). */
export type FrameTimeoutReason = 'iframe_load_failed' | 'iframe_request_timeout'

/** The frame's lifecycle: idle until first needed, initialised 500 ms after READY. */
export type FrameStatus = 'idle' | 'loading' | 'ready' | 'initialised' | 'failed'

/** An ERROR answer of the frame. */
export class FrameRequestError extends Error {
  override name = 'FrameRequestError'
  constructor(
    message: string,
    /** The EIP-1193 / JSON-RPC code the frame gave, if any. */
    readonly code?: number,
  ) {
    super(message)
  }
}

/** Options of createFrameClient. */
export interface FrameClientOptions {
  /** The frame origin's base URL (latchd's --frame-url), e.g. https://frame.example. */
  readonly frameUrl: string
  readonly projectId: string
  /** The chain id the frame starts on (a CAIP-2 id or a number). */
  readonly chainId: string | number
  readonly enableLogger?: boolean
  /** Where the iframe goes; the page's document by default. */
  readonly document?: Document
  /** The page's window, whose message events carry the frame's answers. */
  readonly window?: Window
  readonly timers?: Timers
  readonly storage?: KeyValueStorage
  /**
   * The eip155 account type GET_USER asks for when the visitor stored none (spec §3 preferred account
   * types; default smartAccount).
   */
  readonly accountType?: EmbeddedAccountType | undefined
  /** ms since epoch (the e-mail cooldown); Date.now by default. */
  readonly now?: () => number
  /** Called when loading or a connect call times out; every open request is then aborted. */
  readonly onTimeout?: (reason: FrameTimeoutReason) => void
  /** Called when the frame shows the visitor a request of this page: the page shows the frame (place). */
  readonly onApprovalRequest?: (request: ApprovalRequest) => void
  /** Called when a request onApprovalRequest announced has its answer (or was aborted). */
  readonly onApprovalEnd?: (requestId: string) => void
  /** The widget's look and language, sent to the frame (SYNC_THEME) once it is ready and on syncAppearance(). */
  readonly appearance?: () => AppPayload<'SYNC_THEME'>
}

/** Where the frame goes on the page, in viewport pixels (position: fixed). */
export interface FrameRect {
  readonly top: number
  readonly left: number
  readonly width: number
  readonly height: number
}

/** The page's handle on the frame. */
export interface FrameClient {
  /** The frame's status now. */
  status(): FrameStatus
  /** subscribe calls fn on every status change; it returns the unsubscribe function. */
  subscribe(fn: (status: FrameStatus) => void): () => void
  /** start creates the iframe if it does not exist yet (on first need, or at start after an earlier e-mail login). */
  start(): void
  /** request sends an app event and resolves with the frame's SUCCESS payload or rejects with its ERROR message. */
  request<N extends AppEventName>(name: N, ...payload: undefined extends AppPayload<N> ? [AppPayload<N>?] : [AppPayload<N>]): Promise<FrameResult<N>>
  /**
   * place shows the frame at rect, over everything (the ApproveTransaction
   * view's spot, where the frame shows the request and its Approve), or hides
   * it again with undefined.
   */
  place(rect: FrameRect | undefined): void
  /** syncAppearance sends the widget's look and language (options.appearance) to the frame, when it is ready. */
  syncAppearance(): void
  /** abort rejects every open request except safe RPC requests, and tells the frame to drop its open approvals. */
  abort(): void
  /**
   * connectEmail starts an e-mail login, refused for 30 s after the last one
   * (spec §5); the mail is in `locale` (the widget's) when latchd ships it.
   */
  connectEmail(email: string, locale?: string): Promise<FrameResult<'CONNECT_EMAIL'>>
  /**
   * waitForDeviceApproval resolves once the visitor opened the approval link
   * mailed for this new device. Not under the 30 s connect timeout: it waits
   * until the link's 10-minute expiry (then rejects with the expiry message,
   * no timeout alert), or until signal aborts (the visitor left the view).
   */
  waitForDeviceApproval(signal?: AbortSignal): Promise<void>
  /** connectOtp verifies the mailed code; a success marks that an e-mail login was used. */
  connectOtp(otp: string): Promise<void>
  /** The frame's origin: the social login popup's pages are there, and its result is taken from there only. */
  readonly origin: string
  /** socialRedirectUri asks the frame to start a social login (it keeps the PKCE verifier): the login's begin URL, which the page posts to (beginSocialLogin). */
  socialRedirectUri(provider: AppPayload<'GET_SOCIAL_REDIRECT_URI'>['provider'], returnUrl?: string): Promise<string>
  /** connectSocial hands the frame the popup's result URI; a success marks that an embedded login was used and keeps the user name (spec §3). */
  connectSocial(resultUri: string, chainId?: number): Promise<FrameResult<'CONNECT_SOCIAL'>>
  /** farcasterUri asks the frame to open a Farcaster channel: its farcaster:// URI for the QR code. */
  farcasterUri(): Promise<string>
  /**
   * connectFarcaster waits until the visitor's Farcaster client completed
   * the channel and the frame opened the session: not under the 30 s connect
   * timeout but the channel's 10 minutes (then FARCASTER_EXPIRED_MESSAGE), or
   * until signal aborts (the visitor left the view). A success marks that an
   * embedded login was used and keeps the user name (spec §3).
   */
  connectFarcaster(chainId?: number, signal?: AbortSignal): Promise<FrameResult<'CONNECT_FARCASTER'>>
  /** isConnected asks the frame, unless no e-mail login was ever used (spec §4); a "no" clears the cached login data. */
  isConnected(): Promise<boolean>
  /** signOut clears the cached login data at once and waits for the frame at most 3 s. */
  signOut(): Promise<void>
  /** destroy removes the iframe and rejects what is open. */
  destroy(): void
}

interface Pending {
  readonly name: AppEventName
  readonly safe: boolean
  readonly resolve: (v: unknown) => void
  readonly reject: (e: Error) => void
}

/** The base-36 random id of a request. */
function newId(): string {
  const b = crypto.getRandomValues(new Uint32Array(2))
  return b[0]!.toString(36) + b[1]!.toString(36)
}

/** createFrameClient makes the page's client of the frame at options.frameUrl. */
export function createFrameClient(options: FrameClientOptions): FrameClient {
  const timers = options.timers ?? globalTimers
  const storage = options.storage ?? browserStorage()
  const now = options.now ?? Date.now
  const frameOrigin = new URL(options.frameUrl).origin

  let status: FrameStatus = 'idle'
  const listeners = new Set<(s: FrameStatus) => void>()
  let iframe: HTMLIFrameElement | undefined
  let detach: (() => void) | undefined
  // Requests sent and waiting for their answer, by id.
  const pending = new Map<string, Pending>()
  // RPC requests the frame shows the visitor (RPC_APPROVAL_REQUIRED), until their answer.
  const approvals = new Set<string>()
  // Requests waiting for READY before they are sent.
  const waitingForReady = new Set<{ resolve: () => void; reject: (e: Error) => void }>()
  let readyTimer: TimerHandle | undefined

  const setStatus = (s: FrameStatus) => {
    if (s === status) return
    status = s
    for (const fn of listeners) fn(s)
  }

  function onMessage(ev: MessageEvent): void {
    if (ev.origin !== frameOrigin || !iframe || ev.source !== iframe.contentWindow) return
    const event = parseFrameEvent(ev.data)
    if (!event) return
    if (event.type === `${FRAME_EVENT_PREFIX}READY`) {
      if (status !== 'loading' && status !== 'failed') return
      setStatus('ready')
      for (const w of waitingForReady) w.resolve()
      waitingForReady.clear()
      syncAppearance()
      readyTimer = timers.setTimeout(() => setStatus('initialised'), FRAME_READY_DELAY_MS)
      return
    }
    if (event.type === `${FRAME_EVENT_PREFIX}RPC_APPROVAL_REQUIRED`) {
      const p = pending.get(event.payload.requestId)
      // Only for an RPC request this page sent and still waits for.
      if (p?.name !== 'RPC_REQUEST' || approvals.has(event.payload.requestId)) return
      approvals.add(event.payload.requestId)
      options.onApprovalRequest?.(event.payload)
      return
    }
    const p = event.id === undefined ? undefined : pending.get(event.id)
    if (!p || event.id === undefined) return
    if (event.type === `${FRAME_EVENT_PREFIX}${p.name}_SUCCESS`) {
      pending.delete(event.id)
      p.resolve(event.payload)
    } else if (event.type === `${FRAME_EVENT_PREFIX}${p.name}_ERROR`) {
      pending.delete(event.id)
      const payload = event.payload as { message?: string; code?: number } | undefined
      p.reject(new FrameRequestError(payload?.message || FRAME_ERROR_FALLBACK, payload?.code))
    }
  }

  function start(): void {
    if (iframe) return
    const doc = options.document ?? globalThis.document
    const win = options.window ?? globalThis.window
    if (!doc?.body || !win) throw new Error(FRAME_NOT_SET_MESSAGE)
    const el = doc.createElement('iframe')
    // Its own id and name (spec §2); a second client on the page gets the next free one.
    let id = 'latch-frame'
    for (let n = 2; doc.getElementById(id); n++) id = `latch-frame-${n}`
    el.id = id
    el.name = id
    el.title = 'Latch wallet'
    el.setAttribute('aria-hidden', 'true')
    el.style.cssText = 'position:fixed;z-index:2147483646;display:none;border:0;width:0;height:0;top:0;left:0'
    const params = frameSearchParams({ projectId: options.projectId, chainId: options.chainId, enableLogger: options.enableLogger ?? false })
    el.src = `${options.frameUrl.replace(/\/+$/, '')}/?${params}`
    el.addEventListener('error', () => loadFailed())
    win.addEventListener('message', onMessage)
    detach = () => win.removeEventListener('message', onMessage)
    iframe = el
    setStatus('loading')
    doc.body.appendChild(el)
  }

  function syncAppearance(): void {
    if (!options.appearance || (status !== 'ready' && status !== 'initialised')) return
    void request('SYNC_THEME', options.appearance()).catch(() => undefined)
  }

  /** approvalEnded tells the page a request the frame showed has its answer. */
  function approvalEnded(id: string): void {
    if (approvals.delete(id)) options.onApprovalEnd?.(id)
  }

  function loadFailed(): void {
    setStatus('failed')
    for (const w of waitingForReady) w.reject(new Error(FRAME_LOAD_FAILED_MESSAGE))
    waitingForReady.clear()
  }

  /** abortOpen rejects open requests; safe RPC requests stay (spec §4). */
  function abortOpen(): void {
    for (const [id, p] of pending) {
      if (p.safe) continue
      pending.delete(id)
      p.reject(new Error(p.name === 'RPC_REQUEST' ? RPC_ABORTED_MESSAGE : REQUEST_ABORTED_MESSAGE))
    }
  }

  function waitReady(loadTimeout: boolean): Promise<void> {
    if (status === 'ready' || status === 'initialised') return Promise.resolve()
    start()
    return new Promise<void>((resolve, reject) => {
      let timer: TimerHandle | undefined
      const w = {
        resolve: () => {
          if (timer !== undefined) timers.clearTimeout(timer)
          resolve()
        },
        reject: (e: Error) => {
          if (timer !== undefined) timers.clearTimeout(timer)
          reject(e)
        },
      }
      waitingForReady.add(w)
      if (loadTimeout) {
        timer = timers.setTimeout(() => {
          if (!waitingForReady.has(w)) return
          options.onTimeout?.('iframe_load_failed')
          loadFailed()
          abortOpen()
        }, FRAME_LOAD_TIMEOUT_MS)
      }
    })
  }

  const deviceDeadline = { ms: DEVICE_APPROVAL_TIMEOUT_MS, message: DEVICE_APPROVAL_EXPIRED_MESSAGE }

  function request<N extends AppEventName>(name: N, payload?: AppPayload<N>): Promise<FrameResult<N>> {
    // GET_USER carries the account type in force: the visitor's stored choice, else the app's default (spec §3).
    if (name === 'GET_USER') {
      const preferredAccountType = storedAccountType(storage) ?? options.accountType ?? 'smartAccount'
      payload = { preferredAccountType, ...payload } as AppPayload<N>
    }
    const answer = send(name, payload, name === 'CONNECT_DEVICE' ? { deadline: deviceDeadline } : {})
    // The signed-in visitor's Solana key is announced as a Wallet Standard wallet (and withdrawn at sign-out).
    if (name === 'GET_USER') void answer.then((user) => solana.setUser(user as FrameResult<'GET_USER'>), () => undefined)
    return answer
  }

  // The Solana key's Wallet Standard wallet, announced under the wallet's name once someone is signed in.
  const solana = createSolanaWallet((method, params, chainId) => request('RPC_REQUEST', { method, params, chainNamespace: 'solana', chainId }), EMBEDDED_CONNECTOR_NAME)

  /**
   * send posts an app event and waits for its answer. Connect calls time out
   * after 30 s (the alert, and every open request aborted); deadline instead
   * gives this request alone its own limit and message; signal drops it.
   */
  async function send<N extends AppEventName>(
    name: N,
    payload: AppPayload<N> | undefined,
    limits: { deadline?: { ms: number; message: string }; signal?: AbortSignal } = {},
  ): Promise<FrameResult<N>> {
    const { deadline, signal } = limits
    if (signal?.aborted) throw new Error(REQUEST_ABORTED_MESSAGE)
    await waitReady(!NO_LOAD_TIMEOUT_EVENTS.includes(name))
    if (signal?.aborted) throw new Error(REQUEST_ABORTED_MESSAGE)
    const target = iframe?.contentWindow
    if (!target) throw new Error(FRAME_NOT_SET_MESSAGE)
    const id = newId()
    const safe = name === 'RPC_REQUEST' && isSafeRpcMethod((payload as AppPayload<'RPC_REQUEST'>).method)
    return new Promise<FrameResult<N>>((resolve, reject) => {
      let timer: TimerHandle | undefined
      const onAbort = () => {
        const p = pending.get(id)
        if (!p) return
        pending.delete(id)
        p.reject(new Error(REQUEST_ABORTED_MESSAGE))
      }
      const done = () => {
        if (timer !== undefined) timers.clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        approvalEnded(id)
      }
      pending.set(id, {
        name,
        safe,
        resolve: (v) => {
          done()
          resolve(v as FrameResult<N>)
        },
        reject: (e) => {
          done()
          reject(e)
        },
      })
      signal?.addEventListener('abort', onAbort)
      if (deadline) {
        timer = timers.setTimeout(() => {
          const p = pending.get(id)
          if (!p) return
          pending.delete(id)
          p.reject(new FrameRequestError(deadline.message))
        }, deadline.ms)
      } else if (CONNECT_EVENTS.includes(name)) {
        timer = timers.setTimeout(() => {
          if (!pending.has(id)) return
          options.onTimeout?.('iframe_request_timeout')
          abortOpen()
        }, FRAME_REQUEST_TIMEOUT_MS)
      }
      target.postMessage({ id, type: `${APP_EVENT_PREFIX}${name}`, payload }, frameOrigin)
    })
  }

  const client: FrameClient = {
    status: () => status,
    subscribe(fn) {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    start,
    request: request as FrameClient['request'],
    place(rect) {
      const el = iframe
      if (!el) return
      if (!rect) {
        el.style.display = 'none'
        el.style.width = el.style.height = '0'
        el.setAttribute('aria-hidden', 'true')
        return
      }
      Object.assign(el.style, { display: 'block', top: `${rect.top}px`, left: `${rect.left}px`, width: `${rect.width}px`, height: `${rect.height}px` })
      el.removeAttribute('aria-hidden')
    },
    syncAppearance,
    abort() {
      abortOpen()
      if (status === 'ready' || status === 'initialised') void request('RPC_ABORT').catch(() => undefined)
    },
    async connectEmail(email, locale) {
      const last = Number(storage.getItem(EMBEDDED_STORAGE_KEYS.lastEmailLoginTime) ?? 0)
      const left = last + EMAIL_LOGIN_COOLDOWN_MS - now()
      if (last > 0 && left > 0) throw new FrameRequestError(`Please try again after ${Math.ceil(left / 1000)} seconds`)
      const result = await request('CONNECT_EMAIL', locale ? { email, locale } : { email })
      storage.setItem(EMBEDDED_STORAGE_KEYS.lastEmailLoginTime, String(now()))
      storage.setItem(EMBEDDED_STORAGE_KEYS.email, email)
      return result
    },
    async waitForDeviceApproval(signal) {
      // Leaving the wait also stops the frame's polling of latchd (RPC_ABORT ends it), not just the page's promise.
      const stop = () => void request('RPC_ABORT').catch(() => undefined)
      signal?.addEventListener('abort', stop, { once: true })
      try {
        await send('CONNECT_DEVICE', undefined, { deadline: deviceDeadline, ...(signal ? { signal } : {}) })
      } finally {
        signal?.removeEventListener('abort', stop)
      }
    },
    async connectOtp(otp) {
      await request('CONNECT_OTP', { otp })
      storage.removeItem(EMBEDDED_STORAGE_KEYS.lastEmailLoginTime)
      storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    },
    origin: frameOrigin,
    async socialRedirectUri(provider, returnUrl) {
      return (await request('GET_SOCIAL_REDIRECT_URI', { provider, ...(returnUrl ? { returnUrl } : {}) })).uri
    },
    async connectSocial(resultUri, chainId) {
      const result = await request('CONNECT_SOCIAL', { uri: resultUri, ...(chainId ? { chainId: `eip155:${chainId}` } : {}) })
      storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
      storage.setItem(EMBEDDED_STORAGE_KEYS.socialUsername, result.userName)
      if (result.email) storage.setItem(EMBEDDED_STORAGE_KEYS.email, result.email)
      return result
    },
    async farcasterUri() {
      return (await request('GET_FARCASTER_URI')).url
    },
    async connectFarcaster(chainId, signal) {
      // Leaving the wait also stops the frame's polling of latchd (RPC_ABORT ends it).
      const stop = () => void request('RPC_ABORT').catch(() => undefined)
      signal?.addEventListener('abort', stop, { once: true })
      try {
        const result = await send('CONNECT_FARCASTER', chainId ? { chainId: `eip155:${chainId}` } : undefined, {
          deadline: { ms: DEVICE_APPROVAL_TIMEOUT_MS, message: FARCASTER_EXPIRED_MESSAGE },
          ...(signal ? { signal } : {}),
        })
        storage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
        storage.setItem(EMBEDDED_STORAGE_KEYS.socialUsername, result.userName)
        return result
      } finally {
        signal?.removeEventListener('abort', stop)
      }
    },
    async isConnected() {
      if (storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed) !== 'true') return false
      try {
        const { isConnected } = await request('IS_CONNECTED')
        if (!isConnected) {
          clearEmbeddedStorage(storage)
          solana.setUser(undefined)
        }
        return isConnected
      } catch {
        clearEmbeddedStorage(storage)
        return false
      }
    },
    async signOut() {
      clearEmbeddedStorage(storage)
      solana.setUser(undefined)
      if (status === 'idle') return
      await new Promise<void>((resolve) => {
        const timer = timers.setTimeout(resolve, FRAME_SIGN_OUT_WAIT_MS)
        request('SIGN_OUT')
          .catch(() => undefined)
          .finally(() => {
            timers.clearTimeout(timer)
            resolve()
          })
      })
    },
    destroy() {
      solana.destroy()
      for (const [id, p] of pending) {
        pending.delete(id)
        p.reject(new Error(REQUEST_ABORTED_MESSAGE))
      }
      for (const w of waitingForReady) w.reject(new Error(REQUEST_ABORTED_MESSAGE))
      waitingForReady.clear()
      if (readyTimer !== undefined) timers.clearTimeout(readyTimer)
      detach?.()
      iframe?.remove()
      iframe = undefined
      setStatus('idle')
    },
  }
  return client
}
