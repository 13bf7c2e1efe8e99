import type { Latch } from '../../latch-types'
import type { NameRecord } from '../client'
import { namesFailure } from '../errors'
import { accountNameError, namesText } from '../rules'
import { accountIsEmbedded, accountNamespaceOf, namesClient, namesSlice } from '../state'

/**
 * The keys of spec §5's messages for a registration without its
 * prerequisites (names/strings.ts), and the English message of a chain id
 * without a coin type (an app's configuration, not the visitor's doing).
 */
export const REGISTER_MESSAGES = {
  networkNotFound: 'names.networkNotFound',
  addressNotFound: 'names.addressNotFound',
  namespace: 'names.evmOnly',
  chainId: (id: number) => `The chain id ${id} has no coin type: it must be below 2^31`,
  taken: 'names.alreadyTaken',
} as const

/** The ENSIP-11 coin type of an EVM chain: 0x80000000 | chainId, for chain ids below 2^31 (spec §5). */
export function coinTypeOf(chainId: number): number {
  if (!Number.isSafeInteger(chainId) || chainId < 0 || chainId >= 0x80000000) throw new Error(REGISTER_MESSAGES.chainId(chainId))
  return (0x80000000 | chainId) >>> 0
}

/**
 * registerName registers `label` in latchd's zone for the connected account
 * (spec §4): loading (is it free, and its full name), then the wallet signs
 * `{name, attributes, timestamp}` through the account's namespace client, then
 * latchd registers it; the profile name is set and the modal shows
 * RegisterAccountNameSuccess. On failure the step returns to idle and the
 * promise rejects with latchd's reason, else "Error registering name {name}" (spec §8).
 */
export async function registerName(latch: Latch, label: string): Promise<NameRecord> {
  const broken = accountNameError(label, latch)
  if (broken) throw new Error(broken)
  const { account, activeNetwork } = latch.getState()
  if (!activeNetwork) throw new Error(namesText(latch, REGISTER_MESSAGES.networkNotFound))
  const address = account.status === 'connected' ? account.address : undefined
  const namespace = accountNamespaceOf(latch)
  const client = namespace ? latch._internal.clients.get(namespace) : undefined
  // Spec §5: names are registered by the auth connector's account (the embedded wallet), not an external wallet's.
  if (!address || !client || !accountIsEmbedded(latch)) throw new Error(namesText(latch, REGISTER_MESSAGES.addressNotFound))
  if (namespace !== 'eip155') throw new Error(namesText(latch, REGISTER_MESSAGES.namespace))
  const coinType = coinTypeOf(activeNetwork.id)

  const wanted = label.trim().toLowerCase()
  const slice = namesSlice(latch)
  const api = namesClient(latch)
  slice.setState({ step: 'signing' })
  let taken: Error | undefined
  try {
    // The wanted name's full form (label.zone) comes with whether it is free.
    const [suggestion] = await api.suggestions(wanted)
    const name = suggestion?.name ?? wanted
    if (suggestion?.registered) throw (taken = new Error(namesText(latch, REGISTER_MESSAGES.taken, { name })))
    // latchd accepts a timestamp within 10 s of its clock (api-shapes §3.6).
    const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const signature = await client.signMessage({ message, address })
    slice.setState({ step: 'registering' })
    const record = await api.register({ coinType, address, message, signature })
    slice.setState({ step: 'idle', profileNames: { ...slice.getState().profileNames, [address.toLowerCase()]: record.name } })
    latch._internal.router.replace('RegisterAccountNameSuccess', { accountName: record.name })
    return record
  } catch (error) {
    slice.setState({ step: 'idle' })
    throw taken ?? namesFailure(error, latch.t('names.registerError', { name: wanted }))
  }
}
