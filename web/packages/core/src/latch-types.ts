// The public shape of a Latch instance, shared by createLatch (core) and the
// React layer. The React package depends only on this contract.
import type { Chain } from 'viem'
import type { Config as WagmiConfig } from '@wagmi/core'
import type { AccountData } from './account/data'
import type { LatchInternal } from './instance'
import type { View } from './modal/router'
import type { PayRequest, PayResult } from './pay/types'
import type { LatchLocale, LocaleCatalogue } from './i18n/locale'
import type { LocaleFormats } from './i18n/intl'
import type { ThemeMode } from './theme'
import type { Features, LatchOptions } from './options'

/** Views of the modal (spec §2, plus Networks and WhatIsAWallet). */
export type LatchView = View

/** Data a view was opened with, e.g. the wallet ConnectingExternal connects. */
export interface LatchViewData {
  wallet?: LatchWallet
  /** What the app opened the view with (`open({ view, arguments })`). */
  arguments?: Readonly<Record<string, unknown>>
}

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected' | 'reconnecting'

/** A wallet the visitor can pick: an announced extension, a registry entry, or both merged by rdns. */
export interface LatchWallet {
  /** Registry id (64 hex), or `announced:<rdns>` for an extension the registry does not know. */
  id: string
  name: string
  /** Image URL: the app's `connectorImages` entry, else the extension's announced icon, else latchd's /getWalletImage. */
  imageUrl?: string
  rdns?: string | null
  /** The wagmi connector id when the wallet is installed (announced); absent for registry-only wallets. */
  connectorId?: string
  /** Where it appears in the Connect list (spec §9 order). */
  kind: 'walletConnect' | 'recent' | 'injected' | 'featured' | 'custom' | 'external' | 'recommended'
  installed: boolean
  mobileLink?: string | null
  desktopLink?: string | null
  webappLink?: string | null
  homepage?: string | null
  chromeStore?: string | null
}

export interface LatchAlert {
  code: string
  variant: 'info' | 'warning' | 'error'
  message: string
}

export interface LatchToast {
  message: string
  variant: 'success' | 'error' | 'loading'
  open: boolean
  /** A link after the message (e.g. the sent transaction on the block explorer). */
  link?: { url: string; label: string }
}

/** Account-view panels and whether each is enabled (local option, or latchd's project config when it says). */
export interface LatchFeatures {
  send: boolean
  receive: boolean
  /** The Activity tab (remote feature `activity`, local `features.history`). */
  activity: boolean
  /** The e-mail field in Connect (remote feature `email`, local `features.email`); also needs a frameUrl. */
  email: boolean
  /** The social buttons in Connect (remote feature `social_login`, local `features.socials`), once the project config is read. */
  socials?: readonly string[] | false
  /** The swap panel (remote feature `swap`, local `features.swaps`), once the project config is read. */
  swaps?: readonly string[] | false
  /** The Buy panel and Pay's buy step (remote feature `onramp`, local `features.onramp`), once the project config is read. */
  onramp?: readonly string[] | false
}

/** The account of the connected namespace. */
export interface LatchAccountState {
  status: ConnectionStatus
  address?: `0x${string}` | string
  caipAddress?: string
  chainId?: number
  /** Native balance of the active network, truncated to 3 decimals (spec §9). */
  balance?: { formatted: string; symbol: string }
  walletInfo?: { name: string; icon?: string; rdns?: string }
}

/** Everything the UI renders from. Snapshots are immutable. */
export interface LatchState {
  open: boolean
  loading: boolean
  shake: boolean
  view: LatchView
  viewData: LatchViewData
  /** Whether the modal may close now (false while sign-in is required and missing, spec §2). */
  canClose: boolean
  /** Depth of the view stack (1 = the first view; back closes). */
  historyLength: number
  themeMode: ThemeMode
  /** The active locale: English until another's catalogue has loaded. */
  locale: LatchLocale
  /** The active locale's writing direction (the modal's `dir`). */
  dir: 'ltr' | 'rtl'
  /** The active locale's catalogue (every key); undefined for English, whose strings are built in. */
  catalogue: LocaleCatalogue | undefined
  /** The active locale's Intl formats; undefined for English, which keeps spec §9's en-US formats. */
  formats: LocaleFormats | undefined
  /** `--latch-*` custom properties for the current theme. */
  themeVars: Record<string, string>
  alert: LatchAlert | null
  toast: LatchToast | null
  account: LatchAccountState
  /** Always one of `networks`; it follows the wallet's chain while that chain is configured. */
  activeNetwork: Chain
  networks: readonly Chain[]
  /** The connected wallet's chain id when it is not among `networks` (the UnsupportedChain view shows it). */
  unsupportedChainId?: number | undefined
  /** Wallets for the Connect view, in spec §9 order. */
  wallets: LatchWallet[]
  /** The last connect attempt's error for ConnectingExternal. */
  connectError: { kind: 'user_rejected' | 'unknown'; message: string } | null
  /** Which account panels are enabled. */
  features: LatchFeatures
  /** Whether the visitor may switch networks in the widget (options.enableNetworkSwitch). */
  enableNetworkSwitch: boolean
  /** The WalletConnect pairing the ConnectingWalletConnect views show; null when WalletConnect is not configured. */
  walletConnect: LatchWalletConnectState | null
}

/** A WalletConnect pairing on offer (spec §9: 4 min, renewed with under 10 s left). */
export interface LatchWalletConnectState {
  /** The pairing URI (`wc:…`) for the QR code and wallet links; undefined while one is being created. */
  uri: string | undefined
  /** When the pairing stops being offered (ms since the epoch). */
  expiresAt: number | undefined
  /** Waiting for a pairing or for the wallet to approve. */
  pending: boolean
  /** Why the last attempt failed (a decline, or e.g. an unreachable relay); cleared by a new attempt. */
  error: { kind: 'user_rejected' | 'unknown'; message: string } | null
}

/** One page of the AllWallets list. */
export interface WalletPage {
  count: number
  wallets: LatchWallet[]
}

/** What NETWORK_SWITCHED listeners receive: the new active network and the one before it. */
export interface LatchNetworkSwitchedEvent {
  network: Chain
  previous: Chain
}

/** Modal events apps can observe (useLatchEvents). */
export interface LatchEvent {
  timestamp: number
  data: { event: string; properties?: Record<string, unknown> }
}

/** What open() takes (AppKit's `open({ view, namespace, arguments })`). */
export interface OpenOptions {
  view?: LatchView
  /** Open on this CAIP-2 namespace's network and account (`eip155`, `solana`); it must be among the configured networks. */
  namespace?: string
  /**
   * The view's arguments, kept as its data (`viewData.arguments`). WalletSend takes `amount` (whole tokens), `to`
   * and `token` (an address, CAIP-10 id or symbol among the balances) and starts with them filled in; WalletSwap
   * starts from `fromToken` and `toToken` (a symbol, CAIP-10 id or address among the network's swap tokens) and
   * `amount` (a positive decimal). A swap token that is not on the network, or a malformed amount, rejects open().
   */
  arguments?: Readonly<Record<string, unknown>>
}

/** A Latch instance, created by createLatch. */
export interface Latch {
  getState(): LatchState
  subscribe(listener: (state: LatchState, prev: LatchState) => void): () => void
  /**
   * Opens the modal; resolves once it shows the view. An unknown view, or a namespace no configured network is
   * in, rejects with a LatchOpenError (the message names it and what there is) and nothing opens.
   */
  open(options?: OpenOptions): Promise<void>
  close(): void
  /** Push a view; `goBack` pops (closing the modal at one view). */
  push(view: LatchView, data?: LatchViewData): void
  goBack(): void
  /** Returns the open modal to `view` in one step: back to its last place on the stack, or `view` alone (see core's goBackTo). */
  goBackTo(view: LatchView): void
  /** Connect a wallet: pushes ConnectingExternal, connects, records it as recent, opens Account on success. */
  connectWallet(wallet: LatchWallet): Promise<void>
  disconnect(): Promise<void>
  /**
   * Switches the active network (spec §4). A chain not in `networks` shows the
   * SWITCH_NETWORK_NOT_FOUND alert and rejects. Not connected: the network
   * becomes active locally (and persists). Connected: the wallet is asked to
   * switch (adding the chain on 4902); on failure the modal goes back one view,
   * a toast says why and the promise rejects with a LatchSwitchNetworkError.
   * On success the Networks/UnsupportedChain view is left (back or close).
   */
  switchNetwork(chainId: number): Promise<void>
  /**
   * NETWORK_SWITCHED: called after every change of the active network, from
   * switchNetwork or from the wallet. Send form state is cleared on it (spec §4).
   */
  onNetworkSwitched(listener: (event: LatchNetworkSwitchedEvent) => void): () => void
  /**
   * Configures one more EVM network (last in `networks`): the Networks view lists it and switching to it works, its
   * RPC through latchd's proxy like the others. A malformed chain, one already configured or a non-EVM network
   * rejects with LatchOptionsError. (The code is an on-demand chunk, hence the promise.)
   */
  addNetwork(chain: Chain): Promise<void>
  /**
   * Stops offering a network. The active one moves to the first remaining network; a wallet still on the removed
   * chain is then on an unsupported chain. An unknown id or the last network rejects with LatchOptionsError.
   */
  removeNetwork(chainId: number): Promise<void>
  /**
   * Changes options at runtime, validated as createLatch validates them and applied only when all are valid (else
   * it rejects with LatchOptionsError and nothing changes). Options that build the instance (projectId, apiUrl,
   * networks, defaultNetwork, metadata, wagmiConfig, walletConnect, frameUrl, siwx, enableReconnect,
   * defaultAccountTypes) are refused. Resolves once applied.
   */
  updateOptions(update: Partial<LatchOptions>): Promise<void>
  /** Changes `features` at runtime (merged over those in force), as updateOptions; remote-managed ones are refused. */
  updateFeatures(update: Partial<Features>): Promise<void>
  /**
   * A network's image URL, by CAIP-2 id (`eip155:1`): the app's `chainImages` entry, else latchd's image route (an
   * operator's logo, else its built-in icon, else a monogram).
   */
  assetImageUrl(caipNetworkId: string): string
  /** AllWallets: one page of the registry (40), or a search (100 results). */
  fetchWallets(params: { page: number; search?: string }): Promise<WalletPage>
  setThemeMode(mode: ThemeMode): void
  setThemeVariables(vars: Record<string, string | number>): void
  subscribeEvents(listener: (event: LatchEvent) => void): () => void
  showToast(message: string, variant: LatchToast['variant'], options?: { link?: { url: string; label: string } }): void
  copyToClipboard(text: string): Promise<void>
  /** Core's message catalogue in the active locale, with `{name}` placeholders filled and plurals by `count`. */
  t(key: string, params?: Record<string, string | number>): string
  /**
   * Switches the widget's language: loads the locale's catalogue chunk, then re-renders in it. Throws LocaleError
   * for a locale Latch does not ship (SUPPORTED_LOCALES).
   */
  setLocale(locale: LatchLocale): Promise<void>
  /**
   * A lookup of any catalogue (a view's `strings.ts`): the active locale's string for key, else `english[key]`, with
   * `{name}` placeholders filled and plurals by a numeric `count`.
   */
  translate(english: Readonly<Record<string, string>>, key: string, params?: Record<string, string | number>): string
  getWagmiConfig(): WagmiConfig
  /**
   * latchd's account data for this project: balances (with the spec's loading
   * flag, retry lock and toast), history, identity and prices, and the signal
   * that the visitor sent a transaction (balances and history refresh on it).
   */
  readonly accountData: AccountData
  /** The EIP-1193 provider of the connected wallet, if any. */
  getProvider(): Promise<unknown>
  /**
   * Keeps a WalletConnect pairing on offer for the ConnectingWalletConnect views:
   * reuses the one in flight while it has 10 s or more left, else starts one.
   */
  pairWalletConnect(): void
  /** Abandons the WalletConnect attempt in flight and offers a new pairing (Try again). */
  retryWalletConnect(): void
  /**
   * Opens the Pay view for a payment request: the connected wallet pays it
   * (buying the missing amount through the on-ramp first when the balance
   * lacks it). Resolves with the transaction; rejects with a clear error (a
   * malformed request, a failed payment, the visitor cancelling).
   */
  pay(request: PayRequest): Promise<PayResult>
  /** Runs start-up work: remote config, origin check, reconnect (spec §4). Idempotent. */
  init(): Promise<void>
  destroy(): void
  /** What core's actions work on (controllers, state slice, per-instance slots). Not for apps: it may change without notice. */
  readonly _internal: LatchInternal
}
