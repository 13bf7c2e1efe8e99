// AppKit's React components (the wrappers of <appkit-button> and friends) over Latch's buttons. Each renders a
// host element in the app's page; createAppKit's root renders Latch's button into it. A prop Latch cannot
// honour throws in development (and is left out in production builds, where the button still works).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { AccountButton, ConnectButton, NetworkButton } from '@latchkit/react'
import { getAppKit } from './appkit'
import { AppKitCompatError } from './options'

function isDev(): boolean {
  try {
    // Bundlers replace this expression; without one, `process` is undefined and we are in development.
    return process.env.NODE_ENV !== 'production'
  } catch {
    return true
  }
}

/** Throws in development for each given prop Latch cannot honour. */
function refuse(component: string, props: Record<string, unknown>): void {
  if (!isDev()) return
  for (const [name, value] of Object.entries(props)) {
    if (value !== undefined) throw new AppKitCompatError(`<${component} ${name}> is not supported by Latch yet`)
  }
}

/** Places node (a Latch component) into this component's spot in the page through createAppKit's root. */
function Slot({ component, node }: { component: string; node: ReactNode }) {
  const appKit = getAppKit(`<${component}>`)
  const [host, setHost] = useState<HTMLSpanElement | null>(null)
  const latest = useRef(node)
  latest.current = node
  const slot = useRef<{ update(node: ReactNode): void } | null>(null)
  useEffect(() => {
    if (!host) return
    const added = appKit.slots.add(host, latest.current)
    slot.current = added
    return () => {
      slot.current = null
      added.remove()
    }
  }, [appKit, host])
  useEffect(() => {
    slot.current?.update(node)
  }, [node])
  return <span ref={setHost} data-appkit={component} style={{ display: 'contents' }} />
}

type Size = 'sm' | 'md'

export type AppKitButtonProps = {
  size?: Size
  label?: string
  loadingLabel?: string
  disabled?: boolean
  balance?: 'show' | 'hide'
  namespace?: string
  charsStart?: number
  charsEnd?: number
}

/** <appkit-button>: "Connect Wallet" when disconnected, the account button once connected. */
export function AppKitButton({ size, label, loadingLabel, disabled, balance, namespace, charsStart, charsEnd }: AppKitButtonProps) {
  refuse('AppKitButton', { namespace })
  const node = useMemo(
    () => (
      <ConnectButton
        label={label}
        loadingLabel={loadingLabel}
        balance={balance ?? 'show'}
        size={size ?? 'md'}
        disabled={disabled ?? false}
        {...(charsStart !== undefined ? { charsStart } : {})}
        {...(charsEnd !== undefined ? { charsEnd } : {})}
      />
    ),
    [label, loadingLabel, balance, size, disabled, charsStart, charsEnd],
  )
  return <Slot component="AppKitButton" node={node} />
}

export type AppKitConnectButtonProps = {
  size?: Size
  label?: string
  loadingLabel?: string
  namespace?: string
}

/** <appkit-connect-button>: opens the Connect view; renders nothing once connected (the account button takes over). */
export function AppKitConnectButton({ size, label, loadingLabel, namespace }: AppKitConnectButtonProps) {
  refuse('AppKitConnectButton', { namespace })
  const node = useMemo(
    () => (
      <ConnectButton.Custom>
        {({ account }) => (account ? null : <ConnectButton label={label} loadingLabel={loadingLabel} size={size ?? 'md'} />)}
      </ConnectButton.Custom>
    ),
    [label, loadingLabel, size],
  )
  return <Slot component="AppKitConnectButton" node={node} />
}

export type AppKitAccountButtonProps = {
  disabled?: boolean
  balance?: 'show' | 'hide'
  namespace?: string
  charsStart?: number
  charsEnd?: number
}

/** <appkit-account-button>: avatar, balance and address of the connected account; opens the Account view. */
export function AppKitAccountButton({ disabled, balance, namespace, charsStart, charsEnd }: AppKitAccountButtonProps) {
  refuse('AppKitAccountButton', { namespace })
  const node = useMemo(
    () => (
      <AccountButton
        disabled={disabled ?? false}
        balance={balance ?? 'show'}
        {...(charsStart !== undefined ? { charsStart } : {})}
        {...(charsEnd !== undefined ? { charsEnd } : {})}
      />
    ),
    [disabled, balance, charsStart, charsEnd],
  )
  return <Slot component="AppKitAccountButton" node={node} />
}

export type AppKitNetworkButtonProps = {
  disabled?: boolean
  label?: string
}

/** <appkit-network-button>: the active network; opens the Networks view. */
export function AppKitNetworkButton({ disabled, label }: AppKitNetworkButtonProps) {
  refuse('AppKitNetworkButton', { label })
  const node = useMemo(() => <NetworkButton disabled={disabled ?? false} />, [disabled])
  return <Slot component="AppKitNetworkButton" node={node} />
}
