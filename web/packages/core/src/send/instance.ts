// The send form of one Latch instance, built inside the send module's chunk so
// a page that never sends does not carry this code.
import { accountNamespace } from '../adapters/registry'
import { mountSlice } from '../store'
import type { Latch } from '../latch-types'
import { createSendController } from './controller'
import type { SendController } from './types'

/**
 * sendControllerOf returns the instance's send form, created on first use and
 * bound to its account, toasts and router (kept in `latch._internal.send`).
 * Another account is another form: the form resets when the address changes.
 */
export function sendControllerOf(latch: Latch): SendController {
  const slot = latch._internal.send
  if (slot.controller) return slot.controller
  const { clients, root } = latch._internal
  const controller = createSendController({
    // The chain's part of a send is the account's namespace adapter's.
    driver: async (namespace) => clients.get(namespace)?.sendDriver(),
    slice: (initial) => mountSlice(root, 'send', initial),
    getContext: () => {
      const { account, activeNetwork } = latch.getState()
      if (account.status !== 'connected' || !account.address) return undefined
      // The namespace comes from the account's CAIP-10 id, so another namespace's account reaches its own rules.
      return { namespace: accountNamespace(account.caipAddress), address: account.address, chain: activeNetwork }
    },
    accountData: latch.accountData,
    resolver: slot.resolver,
    notify: {
      success: (notice) => latch.showToast(notice.message, 'success', notice.link ? { link: notice.link } : undefined),
      error: (message) => latch.showToast(message, 'error'),
    },
    returnToAccount: () => latch.goBackTo('Account'),
    locale: () => latch.getState(),
    onNetworkSwitched: (listener) => latch.onNetworkSwitched(() => listener()),
  })
  const unsubscribe = latch.subscribe((next, prev) => {
    if (next.account.address !== prev.account.address) controller.reset()
  })
  const destroy = controller.destroy
  slot.controller = Object.assign(controller, {
    destroy() {
      unsubscribe()
      destroy()
    },
  })
  return slot.controller
}
