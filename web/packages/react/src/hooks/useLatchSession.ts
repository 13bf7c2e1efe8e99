import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { loadSiwxModule, type LatchSessionStatus, type SIWXSession, type SiwxState } from '@latchkit/core'
import { useLatchInstance } from '../context'

export type UseLatchSessionReturnType = {
  /** Where the connected account's sign-in stands; `disabled` without `options.siwx`. */
  status: LatchSessionStatus
  /** The connected account's session, when signed in. */
  session: SIWXSession | undefined
  /** Sign-in is required (the sign-message view cannot be closed). */
  required: boolean
  /** The last sign-in's failure ('Signature declined', …), until the next attempt. */
  error: string | undefined
  /** Asks the wallet to sign the sign-in message and stores the session; rejects with the shown error. */
  signIn: () => Promise<SIWXSession>
  /** Revokes the session (with sign-in required, the wallet is disconnected too). */
  signOut: () => Promise<void>
}

const signedOut: SiwxState = { status: 'signed-out', required: false, session: undefined, account: undefined, error: undefined }
const disabled: SiwxState = { ...signedOut, status: 'disabled' }

/** The connected account's sign-in (SIWX): its state, and signIn / signOut (the sign-in module loads on first use). */
export function useLatchSession(): UseLatchSessionReturnType {
  const latch = useLatchInstance()
  const { root, opts } = latch._internal
  const subscribe = useCallback(
    (onChange: () => void) => root.subscribe((next, prev) => next.siwx !== prev.siwx && onChange()),
    [root],
  )
  const read = () => root.getState().siwx ?? (opts.siwx ? signedOut : disabled)
  const state = useSyncExternalStore(subscribe, read, read)
  const actions = useMemo(
    () => ({
      signIn: async () => (await loadSiwxModule()).signIn(latch),
      signOut: async () => (await loadSiwxModule()).signOut(latch),
    }),
    [latch],
  )
  return { status: state.status, session: state.session, required: state.required, error: state.error, ...actions }
}
