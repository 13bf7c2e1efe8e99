import { useMemo } from 'react'
import { useLatchInstance } from '../context'

export type UseDisconnectReturnType = { disconnect: () => Promise<void> }

/** Disconnects the connected wallet. */
export function useDisconnect(): UseDisconnectReturnType {
  const latch = useLatchInstance()
  return useMemo(() => ({ disconnect: () => latch.disconnect() }), [latch])
}
