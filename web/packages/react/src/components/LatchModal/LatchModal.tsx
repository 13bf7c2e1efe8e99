import { useEffect, useReducer, type ComponentType } from 'react'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { loadLazyViews } from './loadLazyViews'

// The dialog and the views it shows first (Connect, Account, Networks…) are a chunk of their own (./ModalDialog),
// reached through the lazy views' loader table, so a page with a connect button does not carry them in its first
// load. The modal loads them when it mounts, right after the page's first render, so they are there before a
// visitor's first click.
let Dialog: ComponentType | undefined
let loading: Promise<void> | undefined

/** loadModalDialog loads the dialog's chunk, once; after a failure the next call tries again. */
export function loadModalDialog(): Promise<void> {
  return (loading ??= loadLazyViews()
    .then((m) => m.loadModalDialog())
    .then(
      (m) => {
        Dialog = m.ModalDialog
      },
      (error: unknown) => {
        loading = undefined // a later open may load it (e.g. the network came back)
        throw error
      },
    ))
}

/** The modal: a `[data-latch]` overlay with a focus-trapped dialog rendering the current view; nothing while closed. */
export function LatchModal() {
  const open = useLatchSelector((state) => state.open)
  const [, loaded] = useReducer((n: number) => n + 1, 0)

  // At mount, and again at an open if that load failed.
  useEffect(() => {
    if (Dialog) return
    let live = true
    loadModalDialog().then(
      () => live && loaded(),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [open])

  return Dialog ? <Dialog /> : null
}
