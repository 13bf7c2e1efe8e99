// The wagmi connector of the embedded wallet (type AUTH). It connects only a
// visitor the frame has signed in (the e-mail actions do the login first),
// so connect() asks the frame for the user; wagmi's reconnect after a reload
// asks isAuthorized(), which answers "no" without creating the frame unless
// an e-mail login was used before (spec §4). Everything else — switching,
// sending, signing — goes through the EIP-1193 provider, so the widget's
// views and useLatchSend work with it as with any wallet.
import { createConnector } from '@wagmi/core'
import { getAddress, type Address } from 'viem'
import { EMBEDDED_CONNECTOR_ID, EMBEDDED_CONNECTOR_NAME, type EmbeddedWallet } from './controller'
import type { EmbeddedEip1193Provider } from './provider'
import { loadLazy } from '../loadLazy'

export { EMBEDDED_CONNECTOR_ID, EMBEDDED_CONNECTOR_NAME }

/** embeddedWallet is the wagmi connector of a Latch instance's embedded wallet. */
export function embeddedWallet(wallet: EmbeddedWallet) {
  return createConnector<EmbeddedEip1193Provider>((config) => {
    const accounts = (): readonly Address[] => {
      const user = wallet.store.getState().user
      return user ? [getAddress(user.address)] : []
    }
    // The account may change with the chain (a smart account only where the chain has one).
    const onChain = (hex: unknown) => config.emitter.emit('change', { chainId: Number(hex), accounts: accounts() })
    // The provider is a chunk of its own, loaded with the first wallet call (after a login or a restore).
    let provider: Promise<EmbeddedEip1193Provider> | undefined
    const getProvider = () =>
      (provider ??= loadLazy().then((l) => l.embeddedProvider()).then(({ createEmbeddedProvider }) => {
        const p = createEmbeddedProvider(wallet, { accounts, isKnownChain: (id) => config.chains.some((c) => c.id === id) })
        p.on('chainChanged', onChain)
        return p
      }))

    return {
      id: EMBEDDED_CONNECTOR_ID,
      name: EMBEDDED_CONNECTOR_NAME,
      type: 'AUTH',
      async connect(parameters) {
        const chainId = parameters?.chainId && config.chains.some((c) => c.id === parameters.chainId) ? parameters.chainId : wallet.chainId()
        const frame = await wallet.frame()
        const user = await frame.request('GET_USER', { chainId: `eip155:${chainId}` })
        wallet.setChainId(chainId)
        wallet.store.setState({ user, email: user.email ?? wallet.store.getState().email, step: 'connected', error: undefined })
        return { accounts: accounts(), chainId } as never
      },
      async disconnect() {
        // Spec §4: the cached login data goes at once; the frame gets at most 3 s.
        await (await wallet.frame()).signOut()
        wallet.store.setState({ user: undefined, step: 'idle', approval: undefined })
      },
      getAccounts: async () => accounts(),
      getChainId: async () => wallet.chainId(),
      getProvider,
      async isAuthorized() {
        // No e-mail login in this browser before: "no", without loading or creating the frame (spec §4).
        if (!wallet.usedBefore()) return false
        try {
          return await (await wallet.frame()).isConnected()
        } catch {
          return false
        }
      },
      async switchChain({ chainId }) {
        const chain = config.chains.find((c) => c.id === chainId)
        if (!chain) throw new Error(`Unrecognized chain ID ${chainId}`)
        await (await getProvider()).request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${chainId.toString(16)}` }] })
        return chain
      },
      onAccountsChanged(list) {
        if (list.length === 0) this.onDisconnect()
        else config.emitter.emit('change', { accounts: list.map((a) => getAddress(a)) })
      },
      onChainChanged: onChain,
      onDisconnect() {
        wallet.store.setState({ user: undefined, step: 'idle' })
        config.emitter.emit('disconnect')
      },
    }
  })
}
