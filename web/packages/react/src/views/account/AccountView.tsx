import { Suspense } from 'react'
import { lazyRetry } from '../../lazyRetry'
import { loadAccountModule, type LatchView, type MessageKey, type WalletFeature } from '@latchkit/core'
import { Avatar } from '../../components/Avatar/Avatar'
import { loadLazyViews } from '../../components/LatchModal/loadLazyViews'
import { useLatchInstance } from '../../context'
import { useLatchConnections } from '../../hooks/useLatchConnections'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useLatchFormats, useStrings } from '../../hooks/useT'
import { useModalT, type ModalStringKey } from '../../components/LatchModal/strings'
import { truncateAddress } from '../../utils'
import { profileStrings } from '../profile/strings'
import { accountStrings } from './strings'

// The tabs and their data layer are a chunk of their own: a page pays for them only once someone connects.
// Core's account module (formats, Activity model) is fetched alongside, not after, the tabs' chunk.
// Loaded through the lazy loaders' chunk, which keeps the tabs' file list out of the first load.
const accountTabs = () => loadLazyViews().then((m) => m.loadAccountTabs())
const AccountTabs = lazyRetry(() => {
  void loadAccountModule().catch(() => {})
  return accountTabs()
})
// The account's name, or the way to choose one, comes with the tabs' chunk (one chunk fewer for the first load
// to know of); the names views it opens are chunks of their own.
const AccountName = lazyRetry(() => accountTabs().then((m) => ({ default: m.AccountName })))

/** Each action's view, test id, label (core's message key or the view's own) and icon path. */
const ACTIONS: Record<WalletFeature, readonly [LatchView, string, MessageKey | ModalStringKey | keyof typeof accountStrings, string?]> = {
  onramp: ['OnRampProviders', 'buy', 'account.buy'],
  swaps: ['WalletSwap', 'swap', 'account.swap'],
  receive: ['WalletReceive', 'receive', 'account.receive', 'M7 2v10M3 8l4 4 4-4'],
  send: ['WalletSend', 'send', 'account.send', 'M7 12V2M3 6l4-4 4 4'],
}

/** The Account view: avatar, address, balance, network, Send and Receive, the Tokens/NFTs/Activity tabs (spec §2), disconnect. */
export function AccountView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const s = useStrings(accountStrings)
  const formats = useLatchFormats()
  const profile = useStrings(profileStrings)
  const { connections } = useLatchConnections()
  const { address, balance, network, features, switchEnabled } = useLatchSelector((state) => ({
    address: state.account.address,
    balance: state.account.balance,
    network: state.activeNetwork,
    features: state.features,
    switchEnabled: state.enableNetworkSwitch,
  }))
  if (!address) return null
  // The actions in features.walletFeaturesOrder. Swap and Buy follow the project's remote features (before the
  // config is read, the local `features.swaps` / `features.onramp`).
  const local = latch._internal.opts.features
  const on: Record<WalletFeature, boolean> = {
    onramp: features.onramp === undefined ? local.onramp !== false : features.onramp !== false,
    swaps: features.swaps === undefined ? local.swaps !== false : features.swaps !== false,
    receive: features.receive,
    send: features.send,
  }
  const actions = local.walletFeaturesOrder.filter((f) => on[f])
  const copy = async () => {
    try {
      await latch.copyToClipboard(address)
      latch.showToast(t('account.addressCopied'), 'success')
    } catch {
      // core reports clipboard failures itself
    }
  }
  return (
    <div className="latch-view latch-account" data-testid="latch-view-Account">
      <Avatar address={address} size={64} />
      <div className="latch-account-row">
        <span className="latch-title" data-testid="latch-account-address" title={address} dir="ltr">
          {truncateAddress(address)}
        </span>
        <button type="button" className="latch-icon-button" data-testid="latch-copy-address" aria-label={t('button.copyAddress')} onClick={copy}>
          <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <rect x="4" y="4" width="8" height="8" rx="2" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path d="M2 10V3a1 1 0 0 1 1-1h7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
        </button>
      </div>
      <Suspense fallback={null}>
        <AccountName />
      </Suspense>
      {balance ? (
        <span className="latch-subtitle" data-testid="latch-account-balance" dir="ltr">
          {formats ? formats.balance(balance.formatted) : balance.formatted} {balance.symbol}
        </span>
      ) : null}
      <button type="button" className="latch-network-badge" data-testid="latch-account-network"
        disabled={!switchEnabled}
        onClick={() => latch.push('Networks')}
      >
        <span className="latch-network-dot" aria-hidden="true" data-testnet={network.testnet ? '' : undefined} />
        {network.name}
      </button>
      {actions.length ? (
        <div className="latch-account-actions">
          {actions.map((f) => {
            const [view, name, label, icon] = ACTIONS[f]
            return (
              <button key={f} type="button" className="latch-action-button" data-testid={`latch-account-${name}`} onClick={() => latch.push(view)}>
                {icon ? (
                  <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
                    <path d={icon} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                ) : null}
                {label in accountStrings ? s(label as keyof typeof accountStrings) : t(label as ModalStringKey)}
              </button>
            )
          })}
        </div>
      ) : null}
      <Suspense fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
        <AccountTabs activity={features.activity} />
      </Suspense>
      {/* The connected wallets (multi-wallet): switch, disconnect one, add another. */}
      <button type="button" className="latch-list-item" data-testid="latch-account-wallets" onClick={() => latch.push('ProfileWallets')}>
        <span className="latch-list-item-name">{profile('profile.openWallets', { count: Math.max(connections.length, 1) })}</span>
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
          <path d="M5 3l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <button
        type="button"
        className="latch-list-item latch-disconnect"
        data-testid="latch-disconnect"
        onClick={() => {
          latch.disconnect().catch(() => {})
        }}
      >
        {t('button.disconnect')}
      </button>
    </div>
  )
}
