'use client'
// The client side: one Latch per page (useState, not module level, so nothing
// is shared between the requests a server renders), with the wagmi config that
// keeps its state in a cookie and the state the server read from it.
import { useState, type ReactNode } from 'react'
import { createLatch, LatchProvider } from '@latchkit/react'
import type { State } from 'wagmi'
import { latchOptions, wagmiConfig, type LatchSettings } from './latch'

export function Providers(props: { settings: LatchSettings; initialState: State | undefined; children: ReactNode }) {
  const [latch] = useState(() => createLatch({ ...latchOptions(props.settings), wagmiConfig: wagmiConfig(props.settings) }))
  return (
    <LatchProvider latch={latch} initialState={props.initialState}>
      {props.children}
    </LatchProvider>
  )
}
