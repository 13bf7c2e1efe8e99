import type { Latch } from '../../latch-types'
import { NamesRequestError, parseNameRecord, type NameRecord } from '../client'
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
 * registerUnavailable is why the connected account cannot register a name (spec §5), in the instance's language:
 * "Network not found", "Address or auth connector not found" when the account is not the embedded (e-mail or social)
 * wallet's, whose session latchd requires, or that names are EVM accounts'; undefined when it can.
 */
export function registerUnavailable(latch: Latch): string | undefined {
  const { account, activeNetwork } = latch.getState()
  if (!activeNetwork) return namesText(latch, REGISTER_MESSAGES.networkNotFound)
  const namespace = accountNamespaceOf(latch)
  const connected = account.status === 'connected' && account.address && namespace && latch._internal.clients.get(namespace)
  if (!connected || !accountIsEmbedded(latch)) return namesText(latch, REGISTER_MESSAGES.addressNotFound)
  if (namespace !== 'eip155') return namesText(latch, REGISTER_MESSAGES.namespace)
  return undefined
}

/**
 * registerName registers `label` in latchd's zone for the connected account
 * (spec §4): loading (is it free, and its full name), then the wallet signs
 * `{name, attributes, timestamp}` through the account's namespace client, then
 * the embedded wallet's frame posts it to latchd with the wallet's session
 * (latchd registers names for that session's account only, spec §5); the
 * profile name is set and the modal shows RegisterAccountNameSuccess. On
 * failure the step returns to idle and the promise rejects with latchd's
 * reason, else "Error registering name {name}" (spec §8).
 */
export async function registerName(latch: Latch, label: string): Promise<NameRecord> {
  const broken = accountNameError(label, latch)
  if (broken) throw new Error(broken)
  const unavailable = registerUnavailable(latch)
  if (unavailable) throw new Error(unavailable)
  const { account, activeNetwork } = latch.getState()
  const address = account.address
  const client = latch._internal.clients.get('eip155')
  // The embedded wallet's frame sends the registration with its session.
  const embedded = latch._internal.embedded
  if (!address || !client || !embedded) throw new Error(namesText(latch, REGISTER_MESSAGES.addressNotFound))
  const coinType = coinTypeOf(activeNetwork.id)

  const wanted = label.trim().toLowerCase()
  const slice = namesSlice(latch)
  const api = namesClient(latch)
  slice.setState({ step: 'signing' })
  let known: Error | undefined
  try {
    // The wanted name's full form (label.zone) comes with whether it can be registered.
    const [suggestion] = await api.suggestions(wanted)
    const name = suggestion?.name ?? wanted
    if (suggestion?.reason) throw (known = new Error(suggestion.reason))
    if (suggestion?.registered) throw (known = new Error(namesText(latch, REGISTER_MESSAGES.taken, { name })))
    // latchd accepts a timestamp within 10 s of its clock (api-shapes §3.6).
    const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const signature = await client.signMessage({ message, address })
    slice.setState({ step: 'registering' })
    const frame = await embedded.frame()
    const answer = await frame.request('REGISTER_NAME', { coinType, address, message, signature }).catch((e: unknown) => {
      // The frame relays latchd's reason; its own "HTTP status code: …" is no reason to show.
      const reason = e instanceof Error && e.message && !e.message.startsWith('HTTP status code') ? e.message : undefined
      throw new NamesRequestError(0, reason, 'POST /v1/profile/account')
    })
    const record = parseNameRecord(answer)
    slice.setState({ step: 'idle', profileNames: { ...slice.getState().profileNames, [address.toLowerCase()]: record.name } })
    latch._internal.router.replace('RegisterAccountNameSuccess', { accountName: record.name })
    return record
  } catch (error) {
    slice.setState({ step: 'idle' })
    throw known ?? namesFailure(error, latch.t('names.registerError', { name: wanted }))
  }
}
