// The one LatchState the UI renders from, derived from the instance's
// controllers and its slice. Nested objects are rebuilt only when their
// inputs change, so useSyncExternalStore selectors see stable references.
import { activeClient } from './adapters/active'
import { alertMessage } from './alerts'
import type { ConnectionState } from './connection/types'
import { toLatchWallet } from './connection/latchWallet'
import type { LatchInternal, LatchSlice } from './instance'
import type { LatchAccountState, LatchState, LatchWallet } from './latch-types'
import { modalContext } from './modal/context'
import { canCloseModal } from './modal/router'
import { buildWalletList } from './wallets'

/** What deriving reads: the instance without its derived store. */
export type StateInputs = Omit<LatchInternal, 'store'>

/** createStateDeriver returns the function computing the instance's LatchState from its parts. */
export function createStateDeriver(internal: StateInputs): (prev: LatchState | undefined) => LatchState {
  // Last inputs and outputs of the costly parts (memo, not state: it is recomputed from the parts).
  const memo: {
    conn?: ConnectionState
    slice?: LatchSlice
    account: LatchAccountState
    wallets: LatchWallet[]
    themeVariables?: unknown
    routeWallet?: unknown
    routeArguments?: unknown
    opts?: unknown
    viewData: LatchState['viewData']
  } = { account: { status: 'disconnected' }, wallets: [], viewData: {} }

  const walletList = (conn: ConnectionState, slice: LatchSlice): LatchWallet[] =>
    buildWalletList({
      announced: [...conn.connectors, ...(conn.walletStandard ?? [])]
        .filter((c) => c.type === 'ANNOUNCED' && c.rdns)
        .map((c) => ({ id: c.id, name: c.name, icon: c.icon ?? '', rdns: c.rdns ?? '' })),
      registry: slice.registry,
      recent: slice.recent,
      customWallets: internal.opts.customWallets,
      featuredWalletIds: internal.opts.featuredWalletIds,
      includeWalletIds: internal.opts.includeWalletIds,
      excludeWalletIds: internal.opts.excludeWalletIds,
      connectorTypeOrder: internal.opts.features.connectorTypeOrder,
      isMobile: internal.isMobile,
      showWalletConnect: internal.walletConnect.available(),
    }).map((w) => toLatchWallet(internal.api, w, internal.opts.connectorImages))

  return (prev) => {
    const conn = internal.connection.getState()
    const slice = internal.slice.getState()
    if (conn !== memo.conn || slice !== memo.slice) {
      if (conn !== memo.conn || slice.registry !== memo.slice?.registry || slice.recent !== memo.slice?.recent) {
        memo.wallets = walletList(conn, slice)
      }
      const ns = activeClient(internal).account
      if (conn !== memo.conn || slice.balance !== memo.slice?.balance) memo.account = {
        status: ns.status,
        ...(ns.address ? { address: ns.address } : {}),
        ...(ns.caipAddress ? { caipAddress: ns.caipAddress } : {}),
        ...(ns.chainId ? { chainId: ns.chainId } : {}),
        ...(slice.balance ? { balance: slice.balance } : {}),
        ...(ns.wallet ? { walletInfo: ns.wallet } : {}),
      }
      memo.conn = conn
      memo.slice = slice
    }
    // A runtime update of the options (wallet ids, order, custom wallets) rebuilds the list too.
    if (internal.opts !== memo.opts) {
      memo.wallets = walletList(conn, slice)
      memo.opts = internal.opts
    }
    const route = internal.router.store.getState()
    const m = internal.modal.store.getState()
    const alert = internal.alerts.store.getState()
    const toast = internal.toasts.store.getState()
    const th = internal.theme.store.getState()
    const lo = internal.locale.store.getState()
    const net = internal.network.store.getState()
    const themeVars =
      prev && prev.themeMode === th.themeMode && memo.themeVariables === th.themeVariables ? prev.themeVars : internal.theme.cssVars()
    memo.themeVariables = th.themeVariables
    const routeWallet = route.data?.wallet
    const routeArguments = route.data?.arguments
    if (routeWallet !== memo.routeWallet || routeArguments !== memo.routeArguments) {
      memo.routeWallet = routeWallet
      memo.routeArguments = routeArguments
      memo.viewData = {
        ...(routeWallet ? { wallet: toLatchWallet(internal.api, routeWallet, internal.opts.connectorImages) } : {}),
        ...(routeArguments ? { arguments: routeArguments } : {}),
      }
    }
    return {
      open: m.open,
      loading: m.loading,
      shake: m.shake,
      view: route.view,
      viewData: memo.viewData,
      canClose: canCloseModal({ ...modalContext(internal), view: route.view }),
      historyLength: route.stack.length,
      themeMode: th.themeMode,
      themeVars,
      locale: lo.locale,
      dir: lo.dir,
      catalogue: lo.catalogue,
      formats: lo.formats,
      alert: alert.open && alert.code ? { code: alert.code, variant: alert.variant, message: alertMessage(alert.code, alert.params, lo.catalogue, lo.locale) } : null,
      toast: toast.open ? { message: toast.message, variant: toast.variant, open: true, ...(toast.link ? { link: toast.link } : {}) } : null,
      account: memo.account,
      activeNetwork: net.activeNetwork,
      networks: net.networks,
      // Always present: the store merges snapshots, so an absent key would keep a stale id.
      unsupportedChainId: net.unsupportedChainId,
      wallets: memo.wallets,
      connectError: slice.connectError,
      features: slice.features,
      walletConnect: internal.walletConnect.available() ? internal.walletConnect.store.getState() : null,
      enableNetworkSwitch: internal.opts.enableNetworkSwitch,
    }
  }
}

