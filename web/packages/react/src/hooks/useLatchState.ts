import type { LatchView, LatchViewData } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchStateReturnType = {
  open: boolean
  loading: boolean
  view: LatchView
  viewData: LatchViewData
  historyLength: number
  /** CAIP-2 id of the active network, e.g. `eip155:1`. */
  selectedNetworkId: string
}

/** The modal's state: open, loading, current view. */
export function useLatchState(): UseLatchStateReturnType {
  return useLatchSelector((state) => ({
    open: state.open,
    loading: state.loading,
    view: state.view,
    viewData: state.viewData,
    historyLength: state.historyLength,
    selectedNetworkId: `eip155:${state.activeNetwork.id}`,
  }))
}
