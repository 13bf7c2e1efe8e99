// The on-demand entry of the send module. A dynamic import keeps the send
// code (validation, controller, ERC-20 encoding, ENS) in its own chunk, so
// only a page that opens Send, or calls useLatchSend, downloads it.

import type { SendState } from './controller'
import { loadLazy, once } from '../loadLazy'

/** The send state before anything is entered: the controller's start, and what a UI shows until the module loads. */
export const initialSendState: SendState = {
  token: undefined,
  sendTokenAmount: '',
  receiverAddress: '',
  resolvedReceiver: undefined,
  receiverProfileName: undefined,
  receiverProfileImageUrl: undefined,
  resolving: false,
  networkBalanceInUSD: undefined,
  tokenBalances: [],
  fee: undefined,
  estimating: false,
  loading: false,
  step: 'form',
  error: undefined,
  errorKind: undefined,
}

/** The send module: everything `./send/index` exports. */
export type SendModule = typeof import('./index')

/** Loads the send module once; later calls share the same promise. */
export const loadSendModule: () => Promise<SendModule> = /* @__PURE__ */ once(() => loadLazy().then((l) => l.send()))
