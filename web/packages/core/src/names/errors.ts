import { NamesRequestError } from './client'

/**
 * namesFailure is the error a names action rejects with (spec §8): latchd's
 * reason when it gave one, else `fallback`. The original error is its cause.
 */
export function namesFailure(error: unknown, fallback: string): Error {
  if (error instanceof NamesRequestError && error.reason) return new Error(error.reason, { cause: error })
  return new Error(fallback, { cause: error })
}
