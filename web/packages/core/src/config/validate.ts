// Validation of runtime updates (updateOptions, updateFeatures): as createLatch validates, against the options in
// force, with the options that build the parts refused.
import { LatchOptionsError, REMOTE_MANAGED_FEATURES, resolveOptions, type Features, type LatchOptions, type ResolvedOptions } from '../options'

function fail(message: string): never {
  throw new LatchOptionsError(message)
}

/**
 * Options fixed at createLatch: updateOptions refuses them. They build the parts (the latchd client, wagmi's
 * config, the WalletConnect connector with the metadata it sends wallets, the e-mail wallet's frame, the sign-in
 * flow, the restore on load); networks change through addNetwork/removeNetwork.
 */
export const FIXED_OPTIONS = [
  'projectId',
  'apiUrl',
  'networks',
  'defaultNetwork',
  'metadata',
  'wagmiConfig',
  'walletConnect',
  'frameUrl',
  'siwx',
  'enableReconnect',
  'defaultAccountTypes',
] as const satisfies readonly (keyof LatchOptions)[]

/**
 * resolveOptionsUpdate validates a runtime update (updateOptions) exactly as createLatch would, against the options
 * in force: a fixed option is refused, and nothing is returned unless the whole result is valid.
 */
export function resolveOptionsUpdate(current: LatchOptions, update: Partial<LatchOptions>): { options: LatchOptions; opts: ResolvedOptions } {
  if (typeof update !== 'object' || update === null) fail('updateOptions takes an object of options')
  for (const name of FIXED_OPTIONS) {
    if (name in update) fail(`\`${name}\` cannot be changed after createLatch${name === 'networks' ? '; use addNetwork/removeNetwork' : ''}`)
  }
  // The remote-managed features: latchd's project config decides them, and what it said at start-up is not asked again.
  for (const name of REMOTE_MANAGED_FEATURES) {
    if (update.features && name in update.features && update.features[name] !== current.features?.[name]) {
      fail(`\`features.${name}\` is decided by latchd's project config and cannot be changed after createLatch`)
    }
  }
  const options = { ...current, ...update }
  return { options, opts: resolveOptions(options) }
}

/** resolveFeaturesUpdate validates a runtime update of `features` (updateFeatures) as resolveOptionsUpdate does. */
export function resolveFeaturesUpdate(current: LatchOptions, update: Partial<Features>): { options: LatchOptions; opts: ResolvedOptions } {
  if (typeof update !== 'object' || update === null) fail('updateFeatures takes an object of features')
  return resolveOptionsUpdate(current, { features: { ...current.features, ...update } })
}
