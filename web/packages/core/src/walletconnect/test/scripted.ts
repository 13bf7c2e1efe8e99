// Test doubles for WalletConnect inside createLatch: a WalletConnect connector
// whose wallet the test plays, and a second connector standing in for an
// injected wallet (so the page has an adapter besides WalletConnect).
import { createConnector } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { alice } from '../../connection/test/fakeWallet'

/** A WalletConnect connector whose wallet the test plays: each connect() shows a new URI and waits. */
export function scriptedWalletConnect() {
  const script = {
    connects: 0,
    cancels: 0,
    disconnects: 0,
    approve: undefined as (() => void) | undefined,
    decline: undefined as ((error: Error) => void) | undefined,
    endFromWallet: undefined as (() => void) | undefined,
  }
  const connectorFn = createConnector<unknown, { cancelPairing(): void }>((config) => {
    let reject: ((error: Error) => void) | undefined
    let connected = false
    return {
      id: 'walletConnect',
      name: 'WalletConnect',
      type: 'walletConnect',
      async connect() {
        script.connects++
        const n = script.connects
        queueMicrotask(() => config.emitter.emit('message', { type: 'display_uri', data: `wc:pairing${n}@2?relay-protocol=irn&symKey=${n}` }))
        await new Promise<void>((resolve, rejectConnect) => {
          reject = rejectConnect
          script.approve = resolve
          script.decline = rejectConnect
        })
        connected = true
        script.endFromWallet = () => {
          connected = false
          config.emitter.emit('disconnect')
        }
        return { accounts: [alice] as never, chainId: mainnet.id }
      },
      cancelPairing() {
        script.cancels++
        reject?.(new Error('Connection request reset. Please try again.'))
      },
      async disconnect() {
        script.disconnects++
        connected = false
      },
      async getAccounts() {
        return connected ? [alice] : []
      },
      async getChainId() {
        return mainnet.id
      },
      async getProvider() {
        return {}
      },
      async isAuthorized() {
        return connected
      },
      onAccountsChanged() {},
      onChainChanged() {},
      onDisconnect() {
        config.emitter.emit('disconnect')
      },
    }
  })
  return { connectorFn, script }
}

/** A second, non-WalletConnect connector: the page has an "adapter" besides WalletConnect. */
export function injectedStandIn() {
  return {
    id: 'injected',
    name: 'Injected',
    type: 'injected',
    connect: async () => ({ accounts: [alice] as never, chainId: 1 }),
    disconnect: async () => {},
    getAccounts: async () => [],
    getChainId: async () => 1,
    getProvider: async () => ({}),
    isAuthorized: async () => false,
    onAccountsChanged() {},
    onChainChanged() {},
    onDisconnect() {},
  }
}

