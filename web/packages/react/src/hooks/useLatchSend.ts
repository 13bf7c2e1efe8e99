import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import { getSendState, initialSendState, loadSendController, sendActions, watchSendState, type SendActions, type SendState } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchBalances } from './useLatchBalances'

/** The send state and the form's actions (core's sendActions; their docs are the controller's). */
export type UseLatchSendReturnType = SendState &
  Omit<SendActions, 'setTokenBalances'> & {
    /** The send module has loaded (it is a separate chunk). */
    ready: boolean
  }

/**
 * Headless send: the same flow as the Send view (spec §4, §5), for an app's
 * own UI, over the instance's send form. The token list follows the
 * account's balances.
 */
export function useLatchSend(): UseLatchSendReturnType {
  const latch = useLatchInstance()
  const state = useSyncExternalStore(
    useCallback((onChange: () => void) => watchSendState(latch, onChange), [latch]),
    () => getSendState(latch),
    () => undefined,
  )
  useEffect(() => {
    loadSendController(latch).catch((error: unknown) => console.error('[latch] could not load the send module', error))
  }, [latch])
  const ready = state !== undefined
  const actions = sendActions(latch)
  const { balances } = useLatchBalances()
  useEffect(() => {
    if (ready && balances) actions.setTokenBalances(balances)
  }, [ready, balances, actions])
  return useMemo(() => {
    const { setTokenBalances: _, ...bound } = actions
    return { ...(state ?? initialSendState), ready, ...bound }
  }, [state, ready, actions])
}
