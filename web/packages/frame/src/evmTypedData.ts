// eth_signTypedData_v4 (EIP-712): viem's hashTypedData (which checks the
// message against its types), signed like every EVM hash (evm.ts). A script
// of its own, loaded when first used.
import { z } from 'zod/mini'
import { hashTypedData } from 'viem'
import { addressSchema, checkOwner, hexBytes, InvalidParamsError, parse, signHash, type Hex } from './evm'

const typedDataParams = z.tuple([addressSchema, z.union([z.string(), z.record(z.string(), z.unknown())])])

/** signTypedDataV4 answers eth_signTypedData_v4 [address, typedData (JSON text or object)]. */
export async function signTypedDataV4(key: Uint8Array, params: unknown): Promise<Hex> {
  const [address, raw] = parse(typedDataParams, params, 'eth_signTypedData_v4')
  let typed: unknown = raw
  if (typeof raw === 'string') {
    try {
      typed = JSON.parse(raw)
    } catch {
      throw new InvalidParamsError('Invalid params for eth_signTypedData_v4: typed data is not JSON')
    }
  }
  const t = parse(
    z.object({ domain: z.optional(z.record(z.string(), z.unknown())), types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))), primaryType: z.string(), message: z.record(z.string(), z.unknown()) }),
    typed,
    'eth_signTypedData_v4',
  )
  const { EIP712Domain: _domain, ...types } = t.types
  checkOwner(key, address)
  // viem checks the message against the types and refuses what does not match.
  return signHash(key, hexBytes(hashTypedData({ domain: t.domain ?? {}, types, primaryType: t.primaryType, message: t.message } as Parameters<typeof hashTypedData>[0])))
}
