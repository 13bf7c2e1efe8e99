// What every signing script shares and none of them should pull in the
// other's curve for: the parameter checks and their error. EVM (evm.ts) and
// Solana (solana.ts) are scripts of their own, so this is kept apart from both.
import { z } from 'zod/mini'

/** A hex string (0x…). */
export type Hex = `0x${string}`
/** An EVM address (0x + 40 hex digits). */
export type Address = `0x${string}`

/** Sends one JSON-RPC call to the chain (through latchd's RPC proxy). */
export type ChainCall = (method: string, params: unknown[]) => Promise<unknown>

/** Hex digits of an address, either case (no checksum check: EIP-55 is checked where an address is encoded). */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/
/** Hex (0x…), possibly empty. */
export const HEX_RE = /^0x[0-9a-fA-F]*$/

/** A hex string (0x…). */
export const hexSchema = z.string().check(z.regex(HEX_RE))
/** An address, checksummed or not. */
export const addressSchema = z.string().check(z.regex(ADDRESS_RE))

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
