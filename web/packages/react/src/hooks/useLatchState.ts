import { networkCaipId, type LatchView, type LatchViewData } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchStateReturnType = {
  open: boolean
  loading: boolean
  view: LatchView
  viewData: LatchViewData
  historyLength: number
  /** CAIP-2 id of the active network, as its namespace adapter writes it. */
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
    selectedNetworkId: networkCaipId(state.activeNetwork),
  }))
}
