// The message protocol between a dapp page and the embedded-wallet frame.
//
// Both sides post `{id, type, payload}` with window.postMessage. The page sends
// `@latch-app/NAME`; the frame answers `@latch-frame/NAME_SUCCESS` (payload =
// the result) or `@latch-frame/NAME_ERROR` (payload = {message}) with the same
// id, and sends a few events of its own (READY, RPC_APPROVAL_REQUIRED).
//
// The page never approves a signature: the frame shows every unsafe request
// itself and signs only after the visitor's own click in it. The page learns
// that an approval waits (to show the frame over its modal) and the result.
//
// Both sides validate every message with these schemas and drop what does not
// match, so a forged or malformed event is ignored rather than half-handled.
// This file imports nothing but zod/mini: the frame bundles it alone, without
// the rest of @latchkit/core.
import { z } from 'zod/mini'

/** Prefix of the page's events. */
export const APP_EVENT_PREFIX = '@latch-app/'
/** Prefix of the frame's events. */
export const FRAME_EVENT_PREFIX = '@latch-frame/'

/** The protocol version the frame announces in READY and the page asks for in the frame's address. */
export const FRAME_PROTOCOL_VERSION = '1'

/** Error message of a method the embedded wallet refuses (spec §6). */
export const RPC_NOT_ALLOWED = 'Requested RPC call is not allowed'
/** What the widget shows for a refused method (spec §6). */
export const ACTION_NOT_ALLOWED = 'Action not allowed'
/** The visitor declined an approval (spec §8). */
export const SIGNATURE_DECLINED = 'Signature declined'
/** GET_USER's error when a new device needs the visitor's recovery password. */
export const RECOVERY_PASSWORD_REQUIRED = 'Recovery password required'
/** GET_USER's error when the recovery password does not decrypt the recovery share. */
export const RECOVERY_PASSWORD_WRONG = 'Wrong recovery password'
/** An ERROR event without a message (spec §8). */
export const FRAME_ERROR_FALLBACK = 'An error occurred'

/** The visitor did not answer the frame's approval in time: the request fails with this (code 4001). */
export const APPROVAL_TIMED_OUT = 'Approval timed out'
/**
 * The frame's answer to a page that posts RPC_APPROVE (the page approved
 * requests before the frame showed them itself): refused, nothing is signed.
 */
export const PAGE_APPROVAL_REFUSED = 'Only the visitor approves, in the wallet frame'
/** The event a page once answered approvals with; the frame refuses it (PAGE_APPROVAL_REFUSED). */
export const REMOVED_APPROVE_EVENT = '@latch-app/RPC_APPROVE'

/** EIP-1193 user-rejected code, sent with SIGNATURE_DECLINED. */
export const USER_REJECTED_CODE = 4001
/** EIP-1193 unsupported-method code, sent with RPC_NOT_ALLOWED. */
export const UNSUPPORTED_METHOD_CODE = 4200

/**
 * Methods answered without the visitor's approval: reads (proxied to latchd's
 * RPC proxy), a raw transaction someone else signed, capability queries, and
 * what the frame answers itself (chain id, accounts). Spec §6 "safe".
 * Open requests of these methods survive an abort (spec §4).
 */
export const SAFE_RPC_METHODS = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_newBlockFilter',
  'eth_newFilter',
  'eth_newPendingTransactionFilter',
  'eth_uninstallFilter',
  'eth_sendRawTransaction',
  'eth_syncing',
  'net_version',
  'web3_clientVersion',
  'wallet_getCapabilities',
] as const

/**
 * Methods that sign or send: the frame shows the request in its own approval
 * view (the page, told by RPC_APPROVAL_REQUIRED, shows the frame over its
 * modal) and signs only after the visitor's click on the frame's Approve.
 * Spec §6 "unsafe".
 */
export const UNSAFE_RPC_METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
] as const

/** A method the frame answers without approval. */
export type SafeRpcMethod = (typeof SAFE_RPC_METHODS)[number]
/** A method the frame signs after approval. */
export type UnsafeRpcMethod = (typeof UNSAFE_RPC_METHODS)[number]

const safeMethods: ReadonlySet<string> = new Set(SAFE_RPC_METHODS)
const unsafeMethods: ReadonlySet<string> = new Set(UNSAFE_RPC_METHODS)

/** isSafeRpcMethod reports whether method is answered without approval. */
export function isSafeRpcMethod(method: string): method is SafeRpcMethod {
  return safeMethods.has(method)
}

/** isUnsafeRpcMethod reports whether method needs the visitor's approval. */
export function isUnsafeRpcMethod(method: string): method is UnsafeRpcMethod {
  return unsafeMethods.has(method)
}

// Request ids: the page makes them (random base-36); bounded so an id cannot
// carry a payload of its own.
const idSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))
const emailSchema = z.string().check(z.maxLength(254), z.email())
/**
 * The page's locale, sent with the events that make latchd send an e-mail so
 * that the mail (and the approval page its link opens) is in the widget's
 * language. The frame checks only that it is a BCP 47-shaped tag; latchd maps
 * it to a locale it ships (anything else: English).
 */
const localeSchema = z.optional(z.string().check(z.maxLength(35), z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)))
const otpSchema = z.string().check(z.regex(/^\d{6}$/))
/** A chain id as the page gives it: a CAIP-2 reference or number (spec §3 "chainId (string or number)"). */
const chainIdSchema = z.union([z.string().check(z.minLength(1), z.maxLength(64)), z.int().check(z.positive())])
const chainNamespaceSchema = z.enum(['eip155', 'solana'])
const accountTypeSchema = z.enum(['eoa', 'smartAccount'])
const passwordSchema = z.string().check(z.minLength(8), z.maxLength(1024))
const none = z.optional(z.undefined())
/** The OAuth providers of social login (spec §5; farcaster has its own events). */
export const OAUTH_SOCIAL_PROVIDERS = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const
/** Spec §5's message for any other provider. */
export const SOCIAL_PROVIDER_MESSAGE = 'Social provider must be google, github, apple, facebook, x or discord'
const socialProviderSchema = z.enum(OAUTH_SOCIAL_PROVIDERS)

// Every app event: name → payload schema.
const appPayloads = {
  SWITCH_NETWORK: z.object({ chainId: chainIdSchema }),
  CONNECT_EMAIL: z.object({ email: emailSchema, locale: localeSchema }),
  CONNECT_DEVICE: none,
  CONNECT_OTP: z.object({ otp: otpSchema }),
  GET_USER: z.optional(
    z.object({
      chainId: z.optional(chainIdSchema),
      preferredAccountType: z.optional(accountTypeSchema),
      /**
       * The visitor's recovery password: on a new account it selects
       * password recovery (else latchd's recovery key encrypts the
       * recovery share); on a new device it decrypts the recovery share.
       */
      recoveryPassword: z.optional(passwordSchema),
    }),
  ),
  IS_CONNECTED: none,
  GET_CHAIN_ID: none,
  /** The provider's URL for the social login popup (the frame keeps the PKCE verifier). */
  GET_SOCIAL_REDIRECT_URI: z.object({
    provider: socialProviderSchema,
    /** Redirect mode (a Telegram mini-app): the page latchd's callback sends the visitor back to, with result_uri. */
    returnUrl: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
  /** The result URI the popup's last page posted to the page (from the frame origin). */
  CONNECT_SOCIAL: z.object({
    uri: z.string().check(z.minLength(1), z.maxLength(4096)),
    preferredAccountType: z.optional(accountTypeSchema),
    chainId: z.optional(chainIdSchema),
  }),
  /** Opens a Sign In With Farcaster channel: its farcaster:// URI for the QR code. */
  GET_FARCASTER_URI: none,
  /** Waits until the visitor's Farcaster client completed the channel, then opens the session (GET_USER then loads the wallet). */
  CONNECT_FARCASTER: z.optional(z.object({ chainId: z.optional(chainIdSchema) })),
  RPC_REQUEST: z.object({
    method: z.string().check(z.minLength(1), z.maxLength(128)),
    params: z.optional(z.unknown()),
    chainNamespace: chainNamespaceSchema,
    chainId: chainIdSchema,
  }),
  /** Ends the open RPC requests of the frame that are not safe (spec §4). */
  RPC_ABORT: none,
  /** The chain ids where the wallet has a smart account (latchd runs a bundler there). */
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: none,
  /** The smart account of the wallet on the current chain: its address and whether it is deployed. */
  INIT_SMART_ACCOUNT: none,
  /** Makes `type` the account the wallet uses (addresses, signatures, transactions). */
  SET_PREFERRED_ACCOUNT: z.object({ type: accountTypeSchema }),
  UPDATE_EMAIL: z.object({ email: emailSchema, locale: localeSchema }),
  UPDATE_EMAIL_PRIMARY_OTP: z.object({ otp: otpSchema, locale: localeSchema }),
  /**
   * A name registration the wallet signed (api-shapes §3.6): the frame posts it to latchd with the wallet's session,
   * which latchd requires (spec §5, the auth connector) and which only the frame holds.
   */
  REGISTER_NAME: z.object({
    coinType: z.int().check(z.nonnegative(), z.lte(0xffffffff)),
    address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
    message: z.string().check(z.minLength(2), z.maxLength(4096)),
    signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{2,8192}$/)),
  }),
  UPDATE_EMAIL_SECONDARY_OTP: z.object({ otp: otpSchema }),
  SIGN_OUT: none,
  /**
   * The widget's look and language, which the frame's approval view follows.
   * The frame takes only the mode, an accent colour (#rgb or #rrggbb: its
   * Approve button, whose text colour the frame picks) and a corner radius;
   * text and background colours are its own, so a page cannot make the
   * request unreadable. Other variables are accepted and unused.
   */
  SYNC_THEME: z.object({
    themeMode: z.optional(z.enum(['light', 'dark'])),
    themeVariables: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
    locale: localeSchema,
  }),
  SYNC_DAPP_DATA: z.object({
    metadata: z.optional(z.object({ name: z.string(), description: z.string(), url: z.string(), icons: z.array(z.string()) })),
    sdkVersion: z.string(),
    sdkType: z.string(),
    projectId: z.string(),
  }),
  RELOAD: none,
}

/** The names of the page's events. */
export type AppEventName = keyof typeof appPayloads
/** The payload of app event N. */
export type AppPayload<N extends AppEventName> = z.infer<(typeof appPayloads)[N]>

/**
 * The connect calls the page times out after 30 s (spec §9: the e-mail and
 * code requests). CONNECT_DEVICE is the wait for the mailed approval link and
 * the frame answers it only once the link is opened: the page bounds it by the
 * link's 10-minute expiry instead (DEVICE_APPROVAL_TIMEOUT_MS), or the
 * visitor ends it by leaving the view.
 */
export const CONNECT_EVENTS: readonly AppEventName[] = ['CONNECT_EMAIL', 'CONNECT_OTP', 'GET_SOCIAL_REDIRECT_URI', 'CONNECT_SOCIAL', 'GET_FARCASTER_URI']
/** Events sent without waiting for the frame's 20 s load timeout (spec §9). */
export const NO_LOAD_TIMEOUT_EVENTS: readonly AppEventName[] = ['SYNC_THEME', 'SYNC_DAPP_DATA']

const userSchema = z.object({
  email: z.nullish(z.string()),
  address: z.string(),
  chainId: chainIdSchema,
  accounts: z.array(z.object({ address: z.string(), type: accountTypeSchema })),
  /** The wallet's Solana address (base58), from the same seed. */
  solanaAddress: z.optional(z.string()),
  userName: z.nullish(z.string()),
  preferredAccountType: z.optional(accountTypeSchema),
  smartAccountDeployed: z.optional(z.boolean()),
})
/** The signed-in visitor (spec §3 "Embedded user in frame payloads"). */
export type FrameUser = z.infer<typeof userSchema>

// Every SUCCESS event: request name → result schema.
const successPayloads = {
  SWITCH_NETWORK: z.object({ chainId: chainIdSchema }),
  CONNECT_EMAIL: z.object({ action: z.enum(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']) }),
  CONNECT_DEVICE: none,
  CONNECT_OTP: none,
  GET_USER: userSchema,
  IS_CONNECTED: z.object({ isConnected: z.boolean() }),
  GET_CHAIN_ID: z.object({ chainId: chainIdSchema }),
  GET_SOCIAL_REDIRECT_URI: z.object({ uri: z.string() }),
  /** The session is open; GET_USER then loads the wallet (as after CONNECT_OTP). */
  CONNECT_SOCIAL: z.object({ provider: socialProviderSchema, userName: z.string(), email: z.nullable(z.string()) }),
  GET_FARCASTER_URI: z.object({ url: z.string() }),
  CONNECT_FARCASTER: z.object({ userName: z.string() }),
  RPC_REQUEST: z.unknown(),
  RPC_ABORT: none,
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: z.object({ smartAccountEnabledNetworks: z.array(z.int().check(z.positive())) }),
  INIT_SMART_ACCOUNT: z.object({ address: z.string(), isDeployed: z.boolean() }),
  SET_PREFERRED_ACCOUNT: z.object({ type: accountTypeSchema, address: z.string() }),
  UPDATE_EMAIL: z.object({ action: z.enum(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']) }),
  UPDATE_EMAIL_PRIMARY_OTP: none,
  UPDATE_EMAIL_SECONDARY_OTP: z.object({ newEmail: z.string() }),
  /** latchd's record of the name; the names module checks its shape. */
  REGISTER_NAME: z.unknown(),
  SIGN_OUT: none,
  SYNC_THEME: none,
  SYNC_DAPP_DATA: none,
  RELOAD: none,
} satisfies Record<AppEventName, z.ZodMiniType>

/** The result of app event N. */
export type FrameResult<N extends AppEventName> = z.infer<(typeof successPayloads)[N]>

const errorPayload = z.object({ message: z.optional(z.string().check(z.maxLength(2000))), code: z.optional(z.int()) })
/** The payload of an ERROR event. */
export type FrameErrorPayload = z.infer<typeof errorPayload>

const approvalRequest = z.object({
  /** The id of the RPC_REQUEST waiting for approval. */
  requestId: idSchema,
  method: z.enum(UNSAFE_RPC_METHODS),
  chainNamespace: chainNamespaceSchema,
  chainId: chainIdSchema,
})
/**
 * What the frame tells the page of a request waiting for the visitor: which
 * one, so the page shows the frame (ApproveTransaction). The frame itself
 * shows the request, decoded, and takes the answer.
 */
export type ApprovalRequest = z.infer<typeof approvalRequest>

const readyPayload = z.object({ version: z.optional(z.string()) })

function appEvent<N extends AppEventName>(name: N) {
  return z.object({ id: idSchema, type: z.literal(`${APP_EVENT_PREFIX}${name}` as `@latch-app/${N}`), payload: appPayloads[name] })
}

const appNames = Object.keys(appPayloads) as AppEventName[]

/** Any event the page may send: unknown types and wrong payloads fail (spec §5). */
export const appEventSchema = z.discriminatedUnion(
  'type',
  appNames.map((n) => appEvent(n)) as unknown as [ReturnType<typeof appEvent<AppEventName>>],
)

/** A page's event. */
export type AppEvent = { [N in AppEventName]: { id: string; type: `@latch-app/${N}`; payload: AppPayload<N> } }[AppEventName]

const frameSuccessSchemas = appNames.map((n) =>
  z.object({ id: idSchema, type: z.literal(`${FRAME_EVENT_PREFIX}${n}_SUCCESS`), payload: successPayloads[n] }),
)
const frameErrorSchemas = appNames.map((n) =>
  z.object({ id: idSchema, type: z.literal(`${FRAME_EVENT_PREFIX}${n}_ERROR`), payload: z.optional(errorPayload) }),
)

/** Any event the frame may send: answers, READY and approval requests. */
export const frameEventSchema = z.discriminatedUnion('type', [
  z.object({ id: z.optional(idSchema), type: z.literal(`${FRAME_EVENT_PREFIX}READY`), payload: readyPayload }),
  z.object({ id: idSchema, type: z.literal(`${FRAME_EVENT_PREFIX}RPC_APPROVAL_REQUIRED`), payload: approvalRequest }),
  // The refusal of a page's RPC_APPROVE (PAGE_APPROVAL_REFUSED).
  z.object({ id: idSchema, type: z.literal(`${FRAME_EVENT_PREFIX}RPC_APPROVE_ERROR`), payload: errorPayload }),
  ...(frameSuccessSchemas as unknown as [z.ZodMiniObject]),
  ...(frameErrorSchemas as unknown as [z.ZodMiniObject]),
])

/** A frame's answer to app event N. */
export type FrameAnswer<N extends AppEventName> =
  | { id: string; type: `@latch-frame/${N}_SUCCESS`; payload: FrameResult<N> }
  | { id: string; type: `@latch-frame/${N}_ERROR`; payload?: FrameErrorPayload }

/** A frame's event. */
export type FrameEvent =
  | { id?: string; type: '@latch-frame/READY'; payload: { version?: string } }
  | { id: string; type: '@latch-frame/RPC_APPROVAL_REQUIRED'; payload: ApprovalRequest }
  | { id: string; type: '@latch-frame/RPC_APPROVE_ERROR'; payload: FrameErrorPayload }
  | { [N in AppEventName]: FrameAnswer<N> }[AppEventName]

/** parseAppEvent returns data as a page's event, or undefined when it is not one. */
export function parseAppEvent(data: unknown): AppEvent | undefined {
  const r = appEventSchema.safeParse(data)
  return r.success ? (r.data as AppEvent) : undefined
}

/** parseFrameEvent returns data as a frame's event, or undefined when it is not one. */
export function parseFrameEvent(data: unknown): FrameEvent | undefined {
  const r = frameEventSchema.safeParse(data)
  return r.success ? (r.data as FrameEvent) : undefined
}

/** appEventName strips the prefix: '@latch-app/CONNECT_EMAIL' → 'CONNECT_EMAIL'. */
export function appEventName(event: AppEvent): AppEventName {
  return event.type.slice(APP_EVENT_PREFIX.length) as AppEventName
}

/**
 * The frame's address parameters (spec §2): projectId, chainId, version and
 * enableLogger, in this order.
 */
export function frameSearchParams(p: { projectId: string; chainId: string | number; enableLogger: boolean }): URLSearchParams {
  return new URLSearchParams({ projectId: p.projectId, chainId: String(p.chainId), version: FRAME_PROTOCOL_VERSION, enableLogger: String(p.enableLogger) })
}
