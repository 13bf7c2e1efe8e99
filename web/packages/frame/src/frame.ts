// The frame's message loop: only the embedding page, on an origin latchd
// allows for the project, is heard; every message is validated against the
// protocol and anything else is ignored. Each request is answered with its
// id as NAME_SUCCESS or NAME_ERROR {message, code?}.
import {
  appEventName,
  FRAME_EVENT_PREFIX,
  FRAME_PROTOCOL_VERSION,
  PAGE_APPROVAL_REFUSED,
  parseAppEvent,
  REMOVED_APPROVE_EVENT,
  UNSUPPORTED_METHOD_CODE,
  type AppEvent,
  type AppEventName,
  type FrameEvent,
} from '../../core/src/embedded/protocol'
import { appearanceOf, createApprovalQueue, type Appearance, type ApprovalPrompt, type ShownRequest } from './approval'
import type { AuthApi } from './authApi'
import type { DeviceStore } from './deviceStore'
import { originAllowed, type OriginRule } from './origins'
import { createRpcHandler, evmChainId } from './rpc'
import { createSmartAccounts, type SmartAccountNetwork } from './smartAccount'
import { ABORTED, createWallet, type WalletDeps } from './wallet'

/** Where the frame is and what it talks to. */
export interface FrameDeps {
  readonly api: AuthApi
  readonly store: DeviceStore
  readonly projectId: string
  /** The chain id from the frame's address. */
  readonly chainId: string
  /** The embedding window. */
  readonly parent: Pick<Window, 'postMessage'>
  /** The embedding page's origin, as the browser reports it. */
  readonly parentOrigin: string | undefined
  /** Registers the window's message listener. */
  readonly listen: (fn: (ev: MessageEvent) => void) => void
  readonly reload: () => void
  readonly log: (...a: unknown[]) => void
  /** The networks with a bundler, where the wallet has a smart account (the page's latch-smart-accounts meta). */
  readonly smartAccountNetworks?: readonly SmartAccountNetwork[]
  /**
   * Shows an unsafe request to the visitor in the frame and resolves with
   * their answer (approval.ts browserPrompt): the only way to a signature.
   */
  readonly prompt: ApprovalPrompt
  /** How long a request waits for the visitor (default APPROVAL_TIMEOUT_MS). */
  readonly approvalTimeoutMs?: number
  /** Told the look and language the page asked for (SYNC_THEME), checked. */
  readonly setAppearance?: (appearance: Appearance) => void
  /** Test hooks for the wallet (clock, sleep, scrypt cost). */
  readonly wallet?: Partial<Pick<WalletDeps, 'now' | 'sleep' | 'scryptCost'>>
}

/** A running frame. */
export interface Frame {
  /** handle processes one message event (exposed for tests). */
  handle(ev: Pick<MessageEvent, 'data' | 'origin' | 'source'>): Promise<void>
}

/**
 * createFrame asks latchd for the project's allowed origins and starts
 * listening when the embedding page is on one of them; it announces READY.
 * It rejects (and listens to nothing) when the embedder is not allowed.
 */
export async function createFrame(deps: FrameDeps): Promise<Frame> {
  const rule: OriginRule = await deps.api.origins()
  const origin = deps.parentOrigin
  if (!origin || !originAllowed(origin, rule)) throw new Error(`Origin not allowed: ${origin ?? 'unknown'}`)
  const pageOrigin: string = origin
  const wallet = createWallet({ api: deps.api, store: deps.store, projectId: deps.projectId, ...deps.wallet })
  let chainId: string | number = deps.chainId
  // Unsafe requests waiting for the visitor, by request id: aborting one ends its wait (and its view).
  const approvals = new Map<string, AbortController>()
  const askVisitor = createApprovalQueue({ prompt: deps.prompt, ...(deps.approvalTimeoutMs !== undefined ? { timeoutMs: deps.approvalTimeoutMs } : {}) })
  let devicePoll: AbortController | undefined

  const post = (event: FrameEvent) => deps.parent.postMessage(event, origin)
  const smartAccounts = createSmartAccounts({
    networks: deps.smartAccountNetworks ?? [],
    call: (id, method, params) => deps.api.rpc(`eip155:${id}`, method, params),
    owner: async () => (await wallet.addresses()).evm as `0x${string}`,
    load: () => deps.store.getSecret(deps.projectId, 'preferredAccountType'),
    save: (type) => deps.store.putSecret(deps.projectId, 'preferredAccountType', type),
  })
  /** The current chain as an EVM chain id; undefined on a Solana network. */
  const evmChain = (): number | undefined => {
    try {
      return evmChainId(chainId)
    } catch {
      return undefined
    }
  }
  const rpc = createRpcHandler({
    wallet,
    api: deps.api,
    chainId: () => chainId,
    smartAccounts,
    session: () => wallet.sessionToken(),
    approve: (request: ShownRequest) => {
      const ctl = new AbortController()
      approvals.set(request.requestId, ctl)
      // The page learns which request waits (to show the frame), never what it shows nor a way to answer it.
      const { requestId, method, chainNamespace, chainId: chain } = request
      post({ id: requestId, type: `${FRAME_EVENT_PREFIX}RPC_APPROVAL_REQUIRED`, payload: { requestId, method, chainNamespace, chainId: chain } })
      return askVisitor(request, ctl.signal).finally(() => approvals.delete(requestId))
    },
  })
  const abortApprovals = () => {
    for (const a of approvals.values()) a.abort(new Error(ABORTED))
  }

  async function answer(event: AppEvent): Promise<unknown> {
    switch (event.type) {
      case '@latch-app/CONNECT_EMAIL':
        devicePoll?.abort()
        return wallet.connectEmail(event.payload.email, event.payload.locale)
      case '@latch-app/CONNECT_DEVICE': {
        devicePoll?.abort()
        const ctl = (devicePoll = new AbortController())
        return wallet.connectDevice(ctl.signal)
      }
      case '@latch-app/CONNECT_OTP':
        return wallet.connectOtp(event.payload.otp)
      case '@latch-app/GET_SOCIAL_REDIRECT_URI':
        return wallet.socialRedirectUri(event.payload.provider, pageOrigin, event.payload.returnUrl)
      case '@latch-app/CONNECT_SOCIAL':
        devicePoll?.abort()
        if (event.payload.chainId !== undefined) chainId = event.payload.chainId
        return wallet.connectSocial(event.payload.uri)
      case '@latch-app/GET_FARCASTER_URI':
        return wallet.farcasterUri(pageOrigin)
      case '@latch-app/CONNECT_FARCASTER': {
        // A wait like CONNECT_DEVICE's: RPC_ABORT and SIGN_OUT end its polling.
        devicePoll?.abort()
        if (event.payload?.chainId !== undefined) chainId = event.payload.chainId
        const ctl = (devicePoll = new AbortController())
        return wallet.connectFarcaster(ctl.signal)
      }
      case '@latch-app/GET_USER': {
        if (event.payload?.chainId !== undefined) chainId = event.payload.chainId
        const user = await wallet.user(chainId, event.payload?.recoveryPassword)
        const evm = evmChain()
        return evm === undefined ? user : smartAccounts.withAccounts(user, evm, event.payload?.preferredAccountType)
      }
      case '@latch-app/GET_SMART_ACCOUNT_ENABLED_NETWORKS':
        return smartAccounts.enabledNetworks()
      case '@latch-app/INIT_SMART_ACCOUNT':
        return smartAccounts.init(evmChainId(chainId))
      case '@latch-app/SET_PREFERRED_ACCOUNT':
        return smartAccounts.setPreferred(event.payload.type, evmChainId(chainId))
      case '@latch-app/IS_CONNECTED':
        return { isConnected: await wallet.isConnected() }
      case '@latch-app/GET_CHAIN_ID':
        return { chainId }
      case '@latch-app/SWITCH_NETWORK': {
        const next = event.payload.chainId
        if (typeof next === 'number' || /^(eip155:)?\d+$|^0x/.test(next)) evmChainId(next)
        chainId = next
        return { chainId }
      }
      case '@latch-app/RPC_REQUEST':
        return rpc(event.id, event.payload)
      case '@latch-app/RPC_ABORT':
        // The page gave up its pending requests: the approvals, and a device-approval wait it left.
        devicePoll?.abort()
        abortApprovals()
        return undefined
      case '@latch-app/UPDATE_EMAIL':
        return wallet.updateEmail(event.payload.email, event.payload.locale)
      case '@latch-app/UPDATE_EMAIL_PRIMARY_OTP':
        // Its SUCCESS carries no payload (the page knows the secondary code comes next).
        await wallet.updateEmailPrimary(event.payload.otp, event.payload.locale)
        return undefined
      case '@latch-app/UPDATE_EMAIL_SECONDARY_OTP':
        return wallet.updateEmailSecondary(event.payload.otp)
      case '@latch-app/REGISTER_NAME':
        return wallet.registerName(event.payload)
      case '@latch-app/SIGN_OUT':
        devicePoll?.abort()
        abortApprovals()
        return wallet.signOut()
      case '@latch-app/SYNC_THEME':
        // The approval view's look and language (approval.ts appearanceOf keeps what is safe to take).
        deps.setAppearance?.(appearanceOf(event.payload))
        return undefined
      case '@latch-app/SYNC_DAPP_DATA':
        // The approval view names the page by its origin, as the browser reports it, not by what the page says.
        return undefined
      case '@latch-app/RELOAD':
        queueMicrotask(deps.reload)
        return undefined
    }
  }

  async function handle(ev: Pick<MessageEvent, 'data' | 'origin' | 'source'>): Promise<void> {
    if (ev.origin !== origin || ev.source !== deps.parent) return
    // A page's approval: refused (only the visitor approves, in this frame), answered so the page knows.
    const d = ev.data as { id?: unknown; type?: unknown } | null
    if (typeof d === 'object' && d !== null && d.type === REMOVED_APPROVE_EVENT) {
      deps.log('refused a page approval')
      if (typeof d.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(d.id)) {
        post({ id: d.id, type: `${FRAME_EVENT_PREFIX}RPC_APPROVE_ERROR`, payload: { message: PAGE_APPROVAL_REFUSED, code: UNSUPPORTED_METHOD_CODE } })
      }
      return
    }
    const event = parseAppEvent(ev.data)
    if (!event) {
      deps.log('ignored a message that is not a valid app event')
      return
    }
    const name: AppEventName = appEventName(event)
    deps.log('request', name, event.id)
    try {
      const result = await answer(event)
      post({ id: event.id, type: `${FRAME_EVENT_PREFIX}${name}_SUCCESS`, payload: result } as FrameEvent)
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e)
      const code = (e as { code?: unknown }).code
      deps.log('error', name, event.id, message)
      post({ id: event.id, type: `${FRAME_EVENT_PREFIX}${name}_ERROR`, payload: { message, ...(typeof code === 'number' && Number.isInteger(code) ? { code } : {}) } } as FrameEvent)
    }
  }

  deps.listen((ev) => void handle(ev))
  post({ type: `${FRAME_EVENT_PREFIX}READY`, payload: { version: FRAME_PROTOCOL_VERSION } })
  return { handle }
}
