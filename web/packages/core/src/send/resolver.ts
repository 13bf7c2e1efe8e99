// Receiver names (spec §5, §9): a pluggable resolver from a name to an
// address. Each namespace's send driver brings its default (ENS on eip155,
// where the chain has it); an app may set its own (setLatchNameResolver).
import type { Chain } from 'viem'

/** Resolves receiver names to addresses. */
export interface NameResolver {
  /**
   * The address `name` points to on `chain`, or null when it has none.
   * Throws a LatchSendError 'invalid_receiver' when names cannot be resolved
   * on that chain.
   */
  resolve(name: string, chain: Chain): Promise<string | null>
}
