// EVM signing with viem's local account: personal_sign here, and what the
// other methods share; eth_signTypedData_v4 (evmTypedData.ts) and
// eth_sendTransaction (evmTransaction.ts) are scripts of their own, loaded
// when first used, so that the key code the frame fetches after READY holds
// neither the EIP-712 encoder nor the transaction serializer. Parameters are
// validated here; the page's approval has been given before any of these run.
import { z } from 'zod/mini'
import { privateKeyToAddress, signMessage } from 'viem/accounts'
import { bytesToHex, isAddress, isAddressEqual, isHex, type Address, type Hex } from 'viem'

/** Sends one JSON-RPC call to the chain (through latchd's RPC proxy). */
export type ChainCall = (method: string, params: unknown[]) => Promise<unknown>

/** A hex string (0x…). */
export const hexSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))
/** An address, checksummed or not. */
export const addressSchema = z.string().check(z.refine((s) => isAddress(s, { strict: false })))

const personalSignParams = z.tuple([z.string(), addressSchema])

/** Bad parameters of a signing call. */
export class InvalidParamsError extends Error {
  override name = 'InvalidParamsError'
  readonly code = -32602
}

/** parse validates params against schema, or throws InvalidParamsError naming method. */
export function parse<S extends z.ZodMiniType>(schema: S, params: unknown, method: string): z.infer<S> {
  const r = schema.safeParse(params)
  if (!r.success) throw new InvalidParamsError(`Invalid params for ${method}`)
  return r.data
}

/** keyFor returns key as viem takes it, after checking that it is expected's. */
export function keyFor(key: Uint8Array, expected: string): Hex {
  const privateKey = bytesToHex(key)
  if (!isAddressEqual(privateKeyToAddress(privateKey), expected as Address)) throw new InvalidParamsError(`Address ${expected} is not this wallet's`)
  return privateKey
}

/** personalSign answers personal_sign [message, address]: a hex message is signed as bytes, other text as UTF-8. */
export async function personalSign(key: Uint8Array, params: unknown): Promise<Hex> {
  const [message, address] = parse(personalSignParams, params, 'personal_sign')
  return signMessage({ message: isHex(message) ? { raw: message } : message, privateKey: keyFor(key, address) })
}
