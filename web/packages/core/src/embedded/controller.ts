// The embedded wallet of one Latch instance: its state (a slice of the root
// store: the login step, the e-mail, the signed-in user, the approval the
// frame waits for) and the frame client, created on first need (spec §4:
// at start only when an e-mail login was used before). The actions in
// ./actions drive it; the wagmi connector and EIP-1193 provider read it.
import { createStore, type SliceFactory, type Store } from '../store'
import type { KeyValueStorage } from '../storage'
import type { Timers } from '../timers'
import { createFrameClient, type FrameClient, type FrameClientOptions, type FrameStatus, type FrameTimeoutReason } from './frameClient'
import type { ApprovalRequest, FrameUser } from './protocol'
import { EMBEDDED_STORAGE_KEYS } from './storageKeys'

/**
 * Where an e-mail login stands: nothing yet; the code is being requested;
 * the mailed code is awaited; the approval link is awaited (new device);
 * the code was accepted and the wallet is loading ('Authenticating...');
 * signed in.
 */
export type EmbeddedStep = 'idle' | 'sending' | 'otp' | 'device' | 'authenticating' | 'connected'

/** Where an e-mail change stands (spec §4: the current address's code, then the new one's). */
export type EmailUpdateStep = 'idle' | 'sending' | 'primaryOtp' | 'secondaryOtp' | 'done'

/** The embedded wallet's state, the `embedded` slice of the root store. */
export interface EmbeddedState {
  readonly step: EmbeddedStep
  /** The address the code went to (or the signed-in user's). */
  readonly email: string | undefined
  /** The signed-in visitor, once the frame answered GET_USER. */
  readonly user: FrameUser | undefined
  /** The last failure of a login step, shown under the field or the code boxes. */
  readonly error: string | undefined
  /** The signing request the frame waits for the visitor to approve or reject. */
  readonly approval: ApprovalRequest | undefined
  /** The frame's lifecycle. */
  readonly frame: FrameStatus
  /** ms since epoch when a new code may be asked for (spec §9: 30 s after the last). */
  readonly resendAt: number
  /** The e-mail change in progress. */
  readonly update: { readonly step: EmailUpdateStep; readonly newEmail: string | undefined; readonly error: string | undefined }
}

/** Options of createEmbeddedWallet. */
export interface EmbeddedWalletOptions {
  readonly frameUrl: string
  readonly projectId: string
  /** The chain the frame starts on: the last one used, else this. */
  readonly defaultChainId: number
  readonly storage: KeyValueStorage
  readonly slice?: SliceFactory<EmbeddedState>
  readonly timers?: Timers
  readonly enableLogger?: boolean
  /** Told when the frame wants the visitor to approve a request (the modal opens ApproveTransaction). */
  readonly onApproval?: (request: ApprovalRequest) => void
  /** Told when the frame did not load or a connect call timed out (spec §8 alerts). */
  readonly onTimeout?: (reason: FrameTimeoutReason) => void
  /** Makes the frame client (tests give one over a scripted frame window). */
  readonly createClient?: (options: FrameClientOptions) => FrameClient
}

/** The embedded wallet of a Latch instance. */
export interface EmbeddedWallet {
  readonly store: Store<EmbeddedState>
  /** client returns the frame client, creating it (not yet the iframe) on first call. */
  client(): FrameClient
  /** The chain the wallet is on: the last one used, else the default network's. */
  chainId(): number
  /** setChainId records the chain the frame switched to (spec §3 last used chain id). */
  setChainId(chainId: number): void
  /** startIfUsedBefore creates the frame now when an e-mail login was used before (spec §4). */
  startIfUsedBefore(): void
  /** destroy removes the frame. */
  destroy(): void
}

/** The embedded slice before anything happened. */
export function initialEmbeddedState(): EmbeddedState {
  return {
    step: 'idle',
    email: undefined,
    user: undefined,
    error: undefined,
    approval: undefined,
    frame: 'idle',
    resendAt: 0,
    update: { step: 'idle', newEmail: undefined, error: undefined },
  }
}

/** createEmbeddedWallet makes the embedded wallet; nothing touches the DOM until the frame is first needed. */
export function createEmbeddedWallet(options: EmbeddedWalletOptions): EmbeddedWallet {
  const store = (options.slice ?? createStore)(initialEmbeddedState())
  const storage = options.storage
  let frame: FrameClient | undefined
  let unsubscribe: (() => void) | undefined

  const chainId = () => {
    const stored = Number(storage.getItem(EMBEDDED_STORAGE_KEYS.lastUsedChainId))
    return Number.isSafeInteger(stored) && stored > 0 ? stored : options.defaultChainId
  }

  function client(): FrameClient {
    if (frame) return frame
    const make = options.createClient ?? createFrameClient
    frame = make({
      frameUrl: options.frameUrl,
      projectId: options.projectId,
      chainId: `eip155:${chainId()}`,
      storage,
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.enableLogger ? { enableLogger: true } : {}),
      onTimeout: (reason) => options.onTimeout?.(reason),
      onApprovalRequest(request) {
        store.setState({ approval: request })
        options.onApproval?.(request)
      },
    })
    unsubscribe = frame.subscribe((status) => store.setState({ frame: status }))
    return frame
  }

  return {
    store,
    client,
    chainId,
    setChainId: (id) => storage.setItem(EMBEDDED_STORAGE_KEYS.lastUsedChainId, String(id)),
    startIfUsedBefore() {
      if (storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed) === 'true') client().start()
    },
    destroy() {
      unsubscribe?.()
      frame?.destroy()
      frame = undefined
      store.setState(initialEmbeddedState())
    },
  }
}
