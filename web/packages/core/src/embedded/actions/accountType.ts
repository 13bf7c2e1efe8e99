// The embedded wallet's account type (spec §3: eoa or smartAccount, the
// preferred type stored in the browser; §7 the smart-account messages; §4
// the fallbacks). Part of the e-mail actions' chunk: only the Account view's
// account-type switch uses them.
import { getAddress, type Address } from 'viem'
import type { KeyValueStorage } from '../../storage'
import type { Latch } from '../../latch-types'
import { EMBEDDED_CONNECTOR_ID } from '../controller'
import type { FrameUser } from '../protocol'
import { errorMessage, requireEmbedded } from '../required'
import { EMBEDDED_STORAGE_KEYS, PREFERRED_ACCOUNT_TYPES_KEY, storedAccountType, type EmbeddedAccountType } from '../storageKeys'

export { PREFERRED_ACCOUNT_TYPES_KEY, storedAccountType, type EmbeddedAccountType }

/** Spec §8: shown when the wallet has no smart account on the network or switching to it failed. */
export const SMART_ACCOUNTS_UNSUPPORTED_MESSAGE = 'This application might not support Smart Accounts'

function storeAccountType(storage: KeyValueStorage, type: EmbeddedAccountType): void {
  let all: Record<string, unknown> = {}
  try {
    all = JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}') as Record<string, unknown>
  } catch {
    // a malformed value is replaced
  }
  storage.setItem(PREFERRED_ACCOUNT_TYPES_KEY, JSON.stringify({ ...all, eip155: type }))
}

/**
 * smartAccountNetworks asks the frame for the chain ids where the wallet
 * has a smart account and keeps them (comma-joined, spec §3); a failure
 * is an empty list (spec §4).
 */
export async function smartAccountNetworks(latch: Latch): Promise<number[]> {
  const wallet = requireEmbedded(latch)
  let ids: number[] = []
  try {
    ids = (await (await wallet.frame()).request('GET_SMART_ACCOUNT_ENABLED_NETWORKS')).smartAccountEnabledNetworks
  } catch {
    ids = []
  }
  // Kept only while the login stands: a sign-out during the request has already cleared the keys
  // (the login marker first, the user only once the frame answered SIGN_OUT).
  if (wallet.usedBefore() && wallet.store.getState().user) {
    latch._internal.storage.setItem(EMBEDDED_STORAGE_KEYS.smartAccountEnabledNetworks, ids.join(','))
  }
  return ids
}

/** The outcome of setAccountType: the type in force, its address, and the message when the wanted one failed. */
export interface AccountTypeResult {
  readonly type: EmbeddedAccountType
  readonly address: string
  readonly error?: string
}

/**
 * setAccountType makes type the wallet's account (SET_PREFERRED_ACCOUNT),
 * stores the preference, reloads the user (both accounts, the active one's
 * address, smartAccountDeployed) and tells wagmi the connected address
 * changed. When the frame refuses, the wallet stays on (or falls back to)
 * its EOA (spec §4) and the result carries the message.
 */
export async function setAccountType(latch: Latch, type: EmbeddedAccountType): Promise<AccountTypeResult> {
  const wallet = requireEmbedded(latch)
  const frame = await wallet.frame()
  const storage = latch._internal.storage
  let error: string | undefined
  try {
    await frame.request('SET_PREFERRED_ACCOUNT', { type })
    storeAccountType(storage, type)
  } catch (e) {
    error = type === 'smartAccount' ? SMART_ACCOUNTS_UNSUPPORTED_MESSAGE : errorMessage(e)
    await frame.request('SET_PREFERRED_ACCOUNT', { type: 'eoa' }).catch(() => undefined)
    storeAccountType(storage, 'eoa')
  }
  const user: FrameUser = await frame.request('GET_USER', { chainId: `eip155:${wallet.chainId()}` })
  wallet.store.setState({ user })
  const connector = latch.getWagmiConfig().connectors.find((c) => c.id === EMBEDDED_CONNECTOR_ID)
  connector?.onAccountsChanged([getAddress(user.address) as Address])
  return { type: user.preferredAccountType ?? 'eoa', address: user.address, ...(error ? { error } : {}) }
}
