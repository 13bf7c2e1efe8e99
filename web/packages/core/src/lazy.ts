// The loaders of core's on-demand chunks, a chunk of its own (./loadLazy loads it,
// first with latchd's client at init). The first load then carries one dynamic
// import for core, not one per chunk each with the list of chunk files the app's
// bundler preloads for it. Each loader is the only import() of its module.
export const api = () => import('./api')
// The native balance read (viem's getBalance and the eth_call/multicall3 code it brings).
export const balance = () => import('./connection/balance')
export const accountModels = () => import('./account/models')
export const names = () => import('./names/index')
export const swap = () => import('./swap/index')
export const pay = () => import('./pay/index')
export const siwx = () => import('./siwx/index')
export const siwxBackend = () => import('./siwx/backend')
export const send = () => import('./send/index')
export const eip155SendDriver = () => import('./adapters/eip155/send/driver')
// Solana (apps that list a Solana network): the adapter's client, then its send driver with @solana/kit.
export const solanaClient = () => import('./adapters/solana/client')
export const solanaSendDriver = () => import('./adapters/solana/send/driver')
export const frameClient = () => import('./embedded/frameClient')
export const embeddedProvider = () => import('./embedded/provider')
export const embeddedActions = () => import('./embedded/actions/all')
export const walletConnectSdk = () => import('./walletconnect/connector/sdk')
export const walletConnectSession = () => import('./walletconnect/connector/session')
// Languages (issue 24): matching the visitor's languages, and loading a locale's catalogue chunk with the Intl formats.
export const localeSwitch = () => import('./i18n/switch')
// Runtime updates (updateOptions, updateFeatures, addNetwork, removeNetwork, open() with a namespace or arguments).
export const runtime = () => import('./config/runtime')
