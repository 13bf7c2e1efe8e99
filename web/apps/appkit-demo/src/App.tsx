import { useState } from 'react'
import {
  AppKitButton,
  AppKitNetworkButton,
  useAppKit,
  useAppKitAccount,
  useAppKitBalance,
  useAppKitNetwork,
  useAppKitState,
  useAppKitTheme,
  useDisconnect,
  useWalletInfo,
} from '@latchkit/appkit-compat'
import type { Chain } from 'viem'

/** networks: the ones given to createAppKit, for the switch buttons. */
export function App({ networks }: { networks: readonly Chain[] }) {
  const { open } = useAppKit()
  const { address, caipAddress, isConnected, status } = useAppKitAccount()
  const { caipNetwork, chainId, switchNetwork } = useAppKitNetwork()
  const { open: isOpen, selectedNetworkId } = useAppKitState()
  const { themeMode, setThemeMode } = useAppKitTheme()
  const { walletInfo } = useWalletInfo()
  const { disconnect } = useDisconnect()
  const { fetchBalance } = useAppKitBalance()
  const [balance, setBalance] = useState<string>()
  const [error, setError] = useState<string>()

  const run = (action: () => Promise<unknown>) => () => {
    setError(undefined)
    action().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '48px auto', padding: '0 16px' }}>
      <h1>AppKit-compat demo</h1>
      <p>An app written against AppKit's React API, running on Latch through @latchkit/appkit-compat.</p>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <AppKitButton />
        <AppKitNetworkButton />
        <button data-testid="demo-open-networks" onClick={run(() => open({ view: 'Networks' }))}>
          Networks
        </button>
        <button data-testid="demo-toggle-theme" onClick={() => setThemeMode(themeMode === 'dark' ? 'light' : 'dark')}>
          {themeMode === 'dark' ? 'Light' : 'Dark'} theme
        </button>
      </div>
      <pre data-testid="appkit-account" style={{ marginTop: 24 }}>
        {JSON.stringify({ status, isConnected, address: address ?? null, caipAddress: caipAddress ?? null, wallet: walletInfo?.name ?? null }, null, 2)}
      </pre>
      <pre data-testid="appkit-network">
        {JSON.stringify({ chainId, caipNetworkId: caipNetwork.caipNetworkId, name: caipNetwork.name, selectedNetworkId, modalOpen: isOpen }, null, 2)}
      </pre>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        {networks.map((network) => (
          <button key={network.id} data-testid={`appkit-switch-${network.id}`} disabled={network.id === chainId} onClick={run(() => switchNetwork(network))}>
            Switch to {network.name}
          </button>
        ))}
        <button
          data-testid="appkit-fetch-balance"
          disabled={!isConnected}
          onClick={run(async () => {
            const result = await fetchBalance()
            setBalance(result.data ? `${result.data.balance} ${result.data.symbol}` : `error: ${result.error}`)
          })}
        >
          Fetch balance
        </button>
        <button data-testid="appkit-disconnect" disabled={!isConnected} onClick={run(() => disconnect())}>
          Disconnect
        </button>
      </div>
      {balance ? <p data-testid="appkit-balance">{balance}</p> : null}
      {error ? (
        <p role="alert" data-testid="appkit-error">
          {error}
        </p>
      ) : null}
    </main>
  )
}

