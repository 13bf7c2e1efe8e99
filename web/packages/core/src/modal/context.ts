// The live facts the modal's opening and closing rules read, from an instance.
import { activeClient } from '../adapters/active'
import type { LatchInternal } from '../instance'
import type { ModalContext } from './controller'

/** modalContext reads the modal rules' facts from the instance now. */
export function modalContext(internal: Pick<LatchInternal, 'clients' | 'connection' | 'walletConnect' | 'isMobile' | 'opts' | 'root'>): ModalContext {
  // The sign-in flow's slice (siwx/flow), present once it started.
  const siwx = internal.root.getState().siwx
  return {
    isConnected: activeClient(internal).account.status === 'connected',
    hasAdapters: internal.walletConnect.hasAdapters(),
    isMobile: internal.isMobile,
    enableNetworkSwitch: internal.opts.enableNetworkSwitch,
    enableEmbedded: internal.opts.enableEmbedded,
    siwxRequired: !!siwx?.required,
    hasSiwxSession: !!siwx?.session,
  }
}
