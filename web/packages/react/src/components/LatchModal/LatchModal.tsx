import { useEffect, useReducer, type ComponentType } from 'react'
import type { Latch } from '@latchkit/core'
import { connectPrefetchIdleMs } from '../../constants'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { loadLazyViews } from './loadLazyViews'

// The dialog and the views it shows first (Connect, Account, Networks…) are a chunk of their own (./ModalDialog),
// reached through the lazy views' loader table, so a page with a connect button does not carry them in its first
// load. The modal loads them when it mounts, right after the page's first render, so they are there before a
// visitor's first click.
let Dialog: ComponentType | undefined
let prefetchView: ((latch: Latch) => Promise<void>) | undefined
let loading: Promise<void> | undefined

/** loadModalDialog loads the dialog's chunk, once; after a failure the next call tries again. */
export function loadModalDialog(): Promise<void> {
  return (loading ??= loadLazyViews()
    .then((m) => m.loadModalDialog())
    .then(
      (m) => {
        Dialog = m.ModalDialog
        prefetchView = m.prefetchConnectView
      },
      (error: unknown) => {
        loading = undefined // a later open may load it (e.g. the network came back)
        throw error
      },
    ))
}

/**
 * prefetchConnect loads what the Connect view needs (the dialog's chunk, then the view's chunks, data and icons: see
 * ConnectView's prefetchConnectView), so that a click shows it at once. The connect button calls it when the pointer
 * is over it or it has focus, and the modal when the page is idle. Each load happens once per page (a failed one
 * again at the next call), so calling it again costs nothing; it never rejects.
 */
export function prefetchConnect(latch: Latch): Promise<void> {
  return loadModalDialog().then(
    () => prefetchView!(latch),
    () => undefined,
  )
}

/** whenIdle runs `run` when the browser is idle (at the latest after connectPrefetchIdleMs), or after that delay where requestIdleCallback is missing; returns the cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: connectPrefetchIdleMs })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(run, connectPrefetchIdleMs)
  return () => clearTimeout(id)
}

/** The modal: a `[data-latch]` overlay with a focus-trapped dialog rendering the current view; nothing while closed. */
export function LatchModal() {
  const latch = useLatchInstance()
  const open = useLatchSelector((state) => state.open)
  const [, loaded] = useReducer((n: number) => n + 1, 0)

  // Once the page is idle and the instance has started (latchd's features say whether the view shows the e-mail
  // field and the socials), what the Connect view needs; not for a visitor already connected (the button opens Account)
  // nor while the modal is open (its views load what they show: a prefetch then only asks for a page again).
  useEffect(() => {
    const prefetch = () => {
      const state = latch.getState()
      if (state.account.status !== 'connected' && !state.open) void prefetchConnect(latch)
    }
    return whenIdle(() => void latch.init().then(prefetch, prefetch))
  }, [latch])

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
