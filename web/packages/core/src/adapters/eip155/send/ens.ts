// The eip155 default name resolver: ENS through the connected chain's own ENS
// contracts (read through latchd's RPC proxy like every other read), and only
// on chains that have them; elsewhere names are refused with a clear message
// rather than looked up somewhere the visitor did not choose.
import { getEnsAddress, type Config } from '@wagmi/core'
import type { Chain } from 'viem'
import { LatchSendError, SEND_MESSAGES } from '../../../send/errors'
import type { NameResolver } from '../../../send/resolver'

/** Whether `chain` has ENS contracts the default resolver can use. */
export function hasEns(chain: Chain): boolean {
  return Boolean(chain.contracts?.ensUniversalResolver)
}

/** The default resolver: ENS through the wagmi config's transports, where the chain has ENS. */
export function createEnsResolver(config: Config): NameResolver {
  return {
    async resolve(name, chain) {
      if (!hasEns(chain)) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.namesUnsupported(chain.name))
      // ENSIP-15 normalisation brings a large table; it loads only when a name is typed.
      const { normalize } = await import('viem/ens')
      let normalized: string
      try {
        normalized = normalize(name.trim())
      } catch (error) {
        throw new LatchSendError('invalid_receiver', SEND_MESSAGES.nameNotResolved(name.trim()), { cause: error })
      }
      const address = await getEnsAddress(config, { name: normalized, chainId: chain.id })
      return address ?? null
    },
  }
}
