import { useState } from 'react'
import {
  AppKitButton,
  AppKitNetworkButton,
  useAppKit,
  useAppKitAccount,
  useAppKitBalance,
  useAppKitConnection,
  useAppKitConnections,
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
  const { address, allAccounts, caipAddress, isConnected, status } = useAppKitAccount()
  const { caipNetwork, chainId, switchNetwork } = useAppKitNetwork()
  const { open: isOpen, selectedNetworkId } = useAppKitState()
  const { themeMode, setThemeMode } = useAppKitTheme()
  const { walletInfo } = useWalletInfo()
  const { disconnect } = useDisconnect()
  const { fetchBalance } = useAppKitBalance()
  const [balance, setBalance] = useState<string>()
  const [error, setError] = useState<string>()
  // Multi-wallet: every connected wallet, the active one first; switching one in and disconnecting one.
  const { connections } = useAppKitConnections()
  const { connection, isPending, switchConnection } = useAppKitConnection({ onError: (e) => setError(e.message) })

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
      <pre data-testid="appkit-connections">
        {JSON.stringify(
          {
            allAccounts: allAccounts.map((a) => a.address),
            connections: connections.map((c) => ({ connectorId: c.connectorId, name: c.name, accounts: c.accounts.map((a) => a.address), active: c.connectorId === connection?.connectorId })),
          },
          null,
          2,
        )}
      </pre>
      {connections.length > 1 ? (
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 12 }}>
          {connections.map((c) => (
            <span key={c.connectorId} style={{ display: 'contents' }}>
              <button data-testid={`appkit-use-${c.connectorId}`} disabled={isPending || c.connectorId === connection?.connectorId} onClick={() => void switchConnection({ connection: c })}>
                Use {c.name}
              </button>
              <button data-testid={`appkit-disconnect-${c.connectorId}`} onClick={run(() => disconnect({ id: c.connectorId }))}>
                Disconnect {c.name}
              </button>
            </span>
          ))}
        </div>
      ) : null}
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

