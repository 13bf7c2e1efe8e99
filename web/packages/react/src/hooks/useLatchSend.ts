import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import {
  initialSendState,
  loadSendModule,
  type FeeOverrides,
  type Latch,
  type NameResolver,
  type SendController,
  type SendModule,
  type SendRequest,
  type SendResult,
  type SendState,
  type TokenBalance,
} from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchBalances } from './useLatchBalances'

const controllers = new WeakMap<Latch, SendController>()
const resolvers = new WeakMap<Latch, NameResolver>()

/**
 * Sets how the Send view and useLatchSend resolve receiver names for this
 * Latch instance, instead of the default (ENS on networks that have it).
 */
export function setLatchNameResolver(latch: Latch, resolver: NameResolver): void {
  resolvers.set(latch, resolver)
  controllers.get(latch)?.setResolver(resolver)
}

/** Back to Account after a token transfer (spec §4): pop to it, or open it when it is not on the stack. */
function returnToAccount(latch: Latch): void {
  for (let guard = 0; guard < 16; guard++) {
    const state = latch.getState()
    if (!state.open || state.view === 'Account' || state.historyLength <= 1) break
    latch.goBack()
  }
  const state = latch.getState()
  if (state.open && state.view !== 'Account') latch.open({ view: 'Account' })
}

/** The send controller of a Latch instance, created once, bound to its wallet connection, toasts and router. */
export function sendControllerFor(latch: Latch, mod: SendModule): SendController {
  let controller = controllers.get(latch)
  if (controller) return controller
  const wagmiConfig = latch.getWagmiConfig()
  const created = mod.createSendController({
    wagmiConfig,
    getContext: () => {
      const { account, activeNetwork } = latch.getState()
      if (account.status !== 'connected' || !account.address) return undefined
      // The namespace comes from the account's CAIP-10 id, so a Solana account reaches the Solana rules.
      const namespace = account.caipAddress?.split(':')[0] ?? 'eip155'
      return { namespace, address: account.address, chain: activeNetwork }
    },
    accountData: latch.accountData,
    resolver: resolvers.get(latch) ?? mod.createEnsResolver(wagmiConfig),
    notify: {
      success: (notice) => latch.showToast(notice.message, 'success', notice.link ? { link: notice.link } : undefined),
      error: (message) => latch.showToast(message, 'error'),
    },
    returnToAccount: () => returnToAccount(latch),
    onNetworkSwitched: (listener) => latch.onNetworkSwitched(() => listener()),
  })
  // Another account is another form.
  latch.subscribe((next, prev) => {
    if (next.account.address !== prev.account.address) created.reset()
  })
  controllers.set(latch, created)
  controller = created
  return controller
}


/** The send state and the controller's actions (their docs are the controller's); setReceiver resolves in the background. */
export type UseLatchSendReturnType = SendState &
  Pick<SendController, 'setToken' | 'setAmount' | 'setMax' | 'review' | 'edit' | 'send' | 'sendNow' | 'reset'> & {
    /** The send module has loaded (it is a separate chunk). */
    ready: boolean
    setReceiver(receiver: string): void
  }

/**
 * Headless send: the same flow as the Send view (spec §4, §5), for an app's
 * own UI. The state is the spec's send state plus the form's progress; the
 * token list follows the account's balances.
 */
export function useLatchSend(): UseLatchSendReturnType {
  const latch = useLatchInstance()
  const [controller, setController] = useState<SendController | undefined>(() => controllers.get(latch))
  useEffect(() => {
    if (controller) return
    let live = true
    loadSendModule().then(
      (mod) => live && setController(sendControllerFor(latch, mod)),
      (error: unknown) => console.error('[latch] could not load the send module', error),
    )
    return () => {
      live = false
    }
  }, [latch, controller])

  const state = useSyncExternalStore(
    useCallback((onChange: () => void) => (controller ? controller.store.subscribe(() => onChange()) : () => {}), [controller]),
    () => controller?.store.getState() ?? initialSendState,
    () => initialSendState,
  )

  const { balances } = useLatchBalances()
  useEffect(() => {
    if (controller && balances) controller.setTokenBalances(balances)
  }, [controller, balances])

  const ensure = useCallback(async () => controller ?? sendControllerFor(latch, await loadSendModule()), [controller, latch])
  // Synchronous once loaded, so controlled inputs update in the same render as the keystroke.
  const run = useCallback(
    (action: (c: SendController) => void) => (controller ? action(controller) : void ensure().then(action)),
    [controller, ensure],
  )

  return useMemo(
    () => ({
      ...state,
      ready: controller !== undefined,
      setToken: (token) => run((c) => c.setToken(token)),
      setAmount: (amount) => run((c) => c.setAmount(amount)),
      setReceiver: (receiver) => run((c) => void c.setReceiver(receiver)),
      setMax: async () => (await ensure()).setMax(),
      review: async (overrides) => (await ensure()).review(overrides),
      edit: () => run((c) => c.edit()),
      send: async () => (await ensure()).send(),
      sendNow: async (request) => (await ensure()).sendNow(request),
      reset: () => run((c) => c.reset()),
    }),
    [state, controller, ensure, run],
  )
}
