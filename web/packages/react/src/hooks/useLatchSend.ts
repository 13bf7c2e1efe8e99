import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { getSendController, initialSendState, loadSendController, type SendController, type SendState } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchBalances } from './useLatchBalances'

/** The send state and the controller's actions (their docs are the controller's); setReceiver resolves in the background. */
export type UseLatchSendReturnType = SendState &
  Pick<SendController, 'setToken' | 'setAmount' | 'setMax' | 'review' | 'edit' | 'send' | 'sendNow' | 'reset'> & {
    /** The send module has loaded (it is a separate chunk). */
    ready: boolean
    setReceiver(receiver: string): void
  }

/**
 * Headless send: the same flow as the Send view (spec §4, §5), for an app's
 * own UI, over the instance's send form (core's loadSendController). The
 * token list follows the account's balances.
 */
export function useLatchSend(): UseLatchSendReturnType {
  const latch = useLatchInstance()
  const [controller, setController] = useState<SendController | undefined>(() => getSendController(latch))
  useEffect(() => {
    if (controller) return
    let live = true
    loadSendController(latch).then(
      (loaded) => live && setController(loaded),
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

  const ensure = useCallback(async () => controller ?? loadSendController(latch), [controller, latch])
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
