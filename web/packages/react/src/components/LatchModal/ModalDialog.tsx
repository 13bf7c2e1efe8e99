import { useEffect, useId, useRef, type CSSProperties, type MouseEvent } from 'react'
import type { LatchState } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSnapshot } from '../../hooks/useLatchSelector'
import { modalStrings, useModalT, type ModalStringKey } from './strings'
import { AlertBanner } from './AlertBanner'
import { ModalHeader } from './ModalHeader'
import { Toast } from './Toast'
import { useAnimatedHeight } from './useAnimatedHeight'
import { useFocusTrap } from './useFocusTrap'
import { ViewRouter } from './ViewRouter'

// What LatchModal's prefetchConnect runs once this chunk is loaded.
export { prefetchConnectView } from '../../views/connect/ConnectView'

/** Core forbids closing (SIWXSignMessage while sign-in is required) with `canClose: false`. */
function canCloseFrom(state: LatchState): boolean {
  return state.canClose
}

/**
 * The modal's dialog: a `[data-latch]` overlay with a focus-trapped dialog rendering the current view. A chunk of its
 * own with the views it renders first (see ./LatchModal).
 */
export function ModalDialog() {
  const latch = useLatchInstance()
  const state = useLatchSnapshot()
  const t = useModalT()
  const titleId = useId()
  const dialog = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const box = useRef<HTMLDivElement>(null)
  useAnimatedHeight(content, box)
  const canClose = canCloseFrom(state)

  useFocusTrap(dialog, state.open)

  useEffect(() => {
    if (!state.open || !canClose) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latch.close()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [latch, state.open, canClose])

  if (!state.open) return null

  const onBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget && canClose) latch.close()
  }
  const title = viewTitle(state, t)

  return (
    <div
      data-latch=""
      data-theme={state.themeMode}
      lang={state.locale}
      dir={state.dir}
      style={state.themeVars as CSSProperties}
      className="latch-overlay"
      data-testid="latch-modal-backdrop"
      onClick={onBackdropClick}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={state.loading || undefined}
        tabIndex={-1}
        className="latch-modal"
        data-testid="latch-modal"
        data-view={state.view}
        data-shake={state.shake ? '' : undefined}
      >
        <ModalHeader
          titleId={titleId}
          title={title}
          canGoBack={state.historyLength > 1}
          canClose={canClose}
          onBack={() => latch.goBack()}
          onClose={() => latch.close()}
        />
        {state.alert ? <AlertBanner alert={state.alert} /> : null}
        <div ref={box} className="latch-modal-content">
          <div ref={content}>
            {/* keyed so every view change runs the 150 ms view transition */}
            <div className="latch-view-transition" key={state.view}>
              <ViewRouter view={state.view} />
            </div>
          </div>
        </div>
        {state.toast?.open ? <Toast toast={state.toast} /> : null}
      </div>
    </div>
  )
}

/** The header title: the wallet's name while connecting, else the view's catalogue title. */
function viewTitle(state: LatchState, t: ReturnType<typeof useModalT>): string {
  const connecting = state.view === 'ConnectingExternal' || state.view === 'ConnectingWalletConnect'
  if (connecting && state.viewData.wallet) return state.viewData.wallet.name
  const key = `view.${state.view}`
  return key in modalStrings ? t(key as ModalStringKey) : state.view.replace(/([a-z])([A-Z])/g, '$1 $2')
}
