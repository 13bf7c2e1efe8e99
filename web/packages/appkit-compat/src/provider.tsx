import type { ReactNode } from 'react'
import { createAppKit } from './appkit'
import type { CreateAppKit } from './options'

export type AppKitProviderProps = CreateAppKit & { children?: ReactNode }

/** AppKit's <AppKitProvider {...options}>: calls createAppKit once (later renders get the same instance) and renders its children. */
export function AppKitProvider({ children, ...options }: AppKitProviderProps) {
  createAppKit(options)
  return <>{children}</>
}
