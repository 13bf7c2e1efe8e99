// The eip155 adapter: EVM chains over @wagmi/core (through the instance's
// connection controller). Sending and signing load their code on demand, so
// a page pays for them only when it sends or signs.
import type { Hex } from 'viem'
import { caipNetworkIdOf } from '../../options'
import { disconnectedNamespace } from '../../connection/types'
import type { NamespaceAdapter, NamespaceClient, NamespaceClientContext } from '../types'
import { loadLazy } from '../../loadLazy'

/** The eip155 namespace (EVM chains, CAIP-2 `eip155:<chain id>`). */
export const eip155Adapter: NamespaceAdapter = {
  namespace: 'eip155',
  // A viem Chain is an EVM chain unless it carries another namespace's adapter.
  ownsNetwork: (network) => !network.adapter,
  caipNetworkId: (network) => caipNetworkIdOf(network),
  // An EVM address is the same account on every EVM network the app configured.
  networksForAddress: (_address, networks) => networks.filter((n) => eip155Adapter.ownsNetwork(n)),
  createClient: (context) => createEip155Client(context),
}

/** The eip155 send code (driver, JSON-RPC, ENS): one chunk, loaded when the visitor first sends. */
const loadSendCode = () => loadLazy().then((l) => l.eip155SendDriver())

function createEip155Client({ connection }: NamespaceClientContext): NamespaceClient {
  const config = () => connection.getWagmiConfig()
  return {
    connect: (connectorId, options) => connection.connect(connectorId, options),
    reconnect: () => connection.init(),
    disconnect: () => connection.disconnect('eip155'),
    account: (state = connection.getState()) => state.namespaces.eip155 ?? disconnectedNamespace,
    balance: ({ address, chainId }) => connection.getNativeBalance({ address: address as Hex, chainId }),
    sendDriver: async () => (await loadSendCode()).createEip155SendDriver(config()),
    async sendTransaction({ chainId, from, transaction }) {
      const { rpc } = await loadSendCode()
      const tx = { from: from as Hex, to: transaction.to as Hex, value: transaction.value, data: transaction.data as Hex | undefined }
      const [gas, fees] = await Promise.all([rpc.estimateGas(config(), chainId, tx), rpc.estimateFees(config(), chainId)])
      return rpc.sendTransaction(config(), chainId, { ...tx, gas, fees })
    },
    async signMessage({ message, address }) {
      const provider = (await this.provider()) as { request(args: { method: string; params: unknown[] }): Promise<unknown> } | undefined
      if (!provider) throw new Error('No wallet is connected')
      // personal_sign takes the message as hex (EIP-191); the wallet prefixes and hashes it.
      const hex = `0x${Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('')}`
      return String(await provider.request({ method: 'personal_sign', params: [hex, address] }))
    },
    switchNetwork: (network) => connection.switchChain(network),
    async provider() {
      const current = config().state.connections.get(config().state.current ?? '')
      return current ? current.connector.getProvider() : undefined
    },
  }
}
