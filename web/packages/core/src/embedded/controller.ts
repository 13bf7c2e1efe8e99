// The embedded wallet of one Latch instance: its state (a slice of the root
// store: the login step, the e-mail, the signed-in user, the approval the
// frame waits for) and the frame client, created on first need (spec §4:
// at start only when an e-mail login was used before). The frame client and
// its zod schemas are a chunk of their own, loaded then: a page whose visitor
// never uses e-mail login never loads them. The actions in ./actions drive
// it; the wagmi connector and EIP-1193 provider read it.
import { createStore, type SliceFactory, type Store } from '../store'
import type { KeyValueStorage } from '../storage'
import type { Timers } from '../timers'
import type { FrameClient, FrameClientOptions, FrameTimeoutReason } from './frameClient'
import type { AppPayload, ApprovalRequest } from './protocol'
import { initialEmbeddedState, type EmbeddedState } from './state'
import { EMBEDDED_STORAGE_KEYS } from './storageKeys'
import { loadLazy } from '../loadLazy'

/** The id of the embedded wallet's wagmi connector (and wagmi's `recentConnectorId` for it). */
export const EMBEDDED_CONNECTOR_ID = 'latchEmbedded'
// The connector's name, shown for the connected wallet; it lives with the timings, which the frame client's chunk
// shares with the first load (a static import of this file from that chunk would pull the chunk into the first load).
export { EMBEDDED_CONNECTOR_NAME } from './timings'

/** Options of createEmbeddedWallet. */
export interface EmbeddedWalletOptions {
  readonly frameUrl: string
  readonly projectId: string
  /** The chain the frame starts on: the last one used, else this. */
  readonly defaultChainId: number
  /** The eip155 account type until the visitor picks one (spec §3 default: smartAccount). */
  readonly accountType?: 'eoa' | 'smartAccount' | undefined
  readonly storage: KeyValueStorage
  readonly slice?: SliceFactory<EmbeddedState>
  readonly timers?: Timers
  readonly enableLogger?: boolean
  /** Told when the frame shows the visitor a request (the modal opens ApproveTransaction, where the frame is shown). */
  readonly onApproval?: (request: ApprovalRequest) => void
  /** The widget's look and language, which the frame's approval view follows (SYNC_THEME). */
  readonly appearance?: () => AppPayload<'SYNC_THEME'>
  /** Told when the frame did not load or a connect call timed out (spec §8 alerts). */
  readonly onTimeout?: (reason: FrameTimeoutReason) => void
  /** Told when a login finished and wagmi connected the wallet (the widget reports it and closes the modal). */
  readonly onConnected?: () => void
  /** Told when the frame refused an RPC method it does not know (spec §4: the modal opens with the message). */
  readonly onMethodNotAllowed?: () => void
  /** Makes the frame client; default: the frame client chunk's createFrameClient. */
  readonly createClient?: (options: FrameClientOptions) => FrameClient
}

/** The embedded wallet of a Latch instance. */
export interface EmbeddedWallet {
  readonly store: Store<EmbeddedState>
  /** frame returns the frame client, loading its chunk and creating it (not yet the iframe) on first call. */
  frame(): Promise<FrameClient>
  /** Whether an e-mail login was used before in this browser (spec §4: otherwise the frame is not asked). */
  usedBefore(): boolean
  /** The chain the wallet is on: the last one used, else the default network's. */
  chainId(): number
  /** setChainId records the chain the frame switched to (spec §3 last used chain id). */
  setChainId(chainId: number): void
  /** startIfUsedBefore creates the frame when an e-mail login was used before (spec §4); resolves once it is created, or at once. */
  startIfUsedBefore(): Promise<void>
  /** rememberEmail stores the login e-mail (spec §3), e.g. after an e-mail change. */
  rememberEmail(email: string): void
  /** The id of the wallet's wagmi connector. */
  readonly connectorId: string
  /** connected tells the widget a login finished and wagmi connected the wallet. */
  connected(): void
  /** methodNotAllowed tells the widget the frame refused an unknown RPC method. */
  methodNotAllowed(): void
  /** appearanceChanged sends the widget's new look or language to the frame, if it exists. */
  appearanceChanged(): void
  /** destroy removes the frame. */
  destroy(): void
}

/** createEmbeddedWallet makes the embedded wallet; nothing touches the DOM until the frame is first needed. */
export function createEmbeddedWallet(options: EmbeddedWalletOptions): EmbeddedWallet {
  const store = (options.slice ?? createStore)(initialEmbeddedState())
  const storage = options.storage
  let frame: FrameClient | undefined
  let loading: Promise<FrameClient> | undefined
  let unsubscribe: (() => void) | undefined
  let destroyed = 0
  // The requests the frame shows the visitor, oldest first (the frame shows them in turn): state.approval is the first.
  let approvals: ApprovalRequest[] = []
  const setApprovals = (next: ApprovalRequest[]) => {
    approvals = next
    store.setState({ approval: next[0] })
  }

  const chainId = () => {
    const stored = Number(storage.getItem(EMBEDDED_STORAGE_KEYS.lastUsedChainId))
    return Number.isSafeInteger(stored) && stored > 0 ? stored : options.defaultChainId
  }

  const usedBefore = () => storage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed) === 'true'

  function frameClient(): Promise<FrameClient> {
    if (frame) return Promise.resolve(frame)
    const generation = destroyed
    loading ??= (options.createClient ? Promise.resolve(options.createClient) : loadLazy().then((l) => l.frameClient()).then((m) => m.createFrameClient)).then(
      (make) => {
        loading = undefined
        if (generation !== destroyed) throw new Error('The e-mail wallet was destroyed')
        return (frame ??= create(make))
      },
      (error: unknown) => {
        loading = undefined // a later attempt may load it (e.g. the network came back)
        throw error
      },
    )
    return loading
  }

  function create(make: (options: FrameClientOptions) => FrameClient): FrameClient {
    const client = make({
      frameUrl: options.frameUrl,
      projectId: options.projectId,
      chainId: `eip155:${chainId()}`,
      storage,
      accountType: options.accountType,
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.enableLogger ? { enableLogger: true } : {}),
      onTimeout: (reason) => options.onTimeout?.(reason),
      onApprovalRequest(request) {
        setApprovals([...approvals, request])
        options.onApproval?.(request)
      },
      onApprovalEnd: (requestId) => setApprovals(approvals.filter((a) => a.requestId !== requestId)),
      ...(options.appearance ? { appearance: options.appearance } : {}),
    })
    unsubscribe = client.subscribe((status) => store.setState({ frame: status }))
    return client
  }

  return {
    store,
    frame: frameClient,
    usedBefore,
    rememberEmail: (email) => storage.setItem(EMBEDDED_STORAGE_KEYS.email, email),
    connectorId: EMBEDDED_CONNECTOR_ID,
    connected: () => options.onConnected?.(),
    methodNotAllowed: () => options.onMethodNotAllowed?.(),
    appearanceChanged: () => frame?.syncAppearance(),
    chainId,
    setChainId: (id) => storage.setItem(EMBEDDED_STORAGE_KEYS.lastUsedChainId, String(id)),
    startIfUsedBefore() {
      if (!usedBefore()) return Promise.resolve()
      return frameClient().then((c) => c.start(), () => undefined)
    },
    destroy() {
      destroyed++
      unsubscribe?.()
      frame?.destroy()
      frame = undefined
      approvals = []
      store.setState(initialEmbeddedState())
    },
  }
}
