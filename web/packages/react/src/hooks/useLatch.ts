import { useMemo } from 'react'
import type { OpenOptions } from '@latchkit/core'
import { useLatchInstance } from '../context'

export type UseLatchReturnType = {
  /** Opens the modal: Account when connected, else Connect, or `options.view`. */
  /** Opens the modal; rejects with LatchOpenError for a view or namespace Latch does not have. */
  open: (options?: OpenOptions) => Promise<void>
  close: () => void
}

/** Controls the modal. */
export function useLatch(): UseLatchReturnType {
  const latch = useLatchInstance()
  return useMemo(
    () => ({ open: (options?: OpenOptions) => latch.open(options), close: () => latch.close() }),
    [latch],
  )
}
