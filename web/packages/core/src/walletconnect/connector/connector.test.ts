// The WalletConnect connector inside a real wagmi config, with a fake
// UniversalProvider standing in for the SDK (the browser test runs the real
// SDK against latchd's relay and a wallet peer).
import { connect, createConfig, custom, disconnect, getConnection, reconnect, switchChain } from '@wagmi/core'
import { getAddress, numberToHex, UserRejectedRequestError } from 'viem'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WalletConnectParameters } from '../options'
import { createWalletConnectConnector, pairingResetMessage } from './connector'
import type { WalletConnectEip1193Provider } from './eip1193'
import { setWalletConnectSignIn, type Cacao, type WalletConnectSignedIn, type WalletConnectSignIn } from './signIn'
import type { RpcRequest, UniversalProviderInit, UniversalProviderLike, WalletConnectSession } from './types'

const alice = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
const bob = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')

type Listener = (...args: never[]) => void

/** A scripted UniversalProvider: the test plays the wallet on the other side of the relay. */
class FakeUniversalProvider implements UniversalProviderLike {
  session: WalletConnectSession | undefined
  defaultChain = '1'
  rpcProviders: UniversalProviderLike['rpcProviders'] = {}
  listeners = new Map<string, Set<Listener>>()
  connectCalls: Parameters<UniversalProviderLike['connect']>[0][] = []
  requests: Array<{ args: RpcRequest; chain: string | undefined }> = []
  clientRequests: unknown[] = []
  cleanups: unknown[] = []
  disconnects = 0
  approve?: (session: WalletConnectSession) => void
  decline?: (error: Error) => void
  answer: (args: RpcRequest) => unknown = () => '0xsigned'
  client: UniversalProviderLike['client'] = {
    request: async (params) => {
      this.clientRequests.push(params)
      return { status: 200 } as never
    },
  }

  constructor() {
    this.rpcProviders.eip155 = { getDefaultChain: () => this.defaultChain }
  }

  connect(params: Parameters<UniversalProviderLike['connect']>[0]): Promise<unknown> {
    this.connectCalls.push(params)
    this.emit('display_uri', `wc:topic${this.connectCalls.length}@2?relay-protocol=irn&symKey=k`)
    return new Promise((resolve, reject) => {
      this.approve = (session) => {
        this.session = session
        this.defaultChain = session.namespaces.eip155!.chains![0]!.split(':')[1]!
        resolve(session)
      }
      this.decline = reject
    })
  }
  authenticateCalls: Parameters<UniversalProviderLike['authenticate']>[0][] = []
  /** Answers the pending authenticate() with a session and the CACAOs the wallet signed. */
  answerAuthenticate?: (session: WalletConnectSession, auths?: Cacao[]) => void
  authenticate(params: Parameters<UniversalProviderLike['authenticate']>[0]) {
    this.authenticateCalls.push(params)
    this.emit('display_uri', `wc:auth${this.authenticateCalls.length}@2?relay-protocol=irn&symKey=k`)
    return new Promise<{ session?: WalletConnectSession; auths?: readonly Cacao[] }>((resolve) => {
      this.answerAuthenticate = (session, auths) => {
        this.session = session
        this.defaultChain = session.namespaces.eip155!.chains![0]!.split(':')[1]!
        resolve({ session, ...(auths ? { auths } : {}) })
      }
    })
  }
  formatAuthMessage(cacao: Cacao) {
    return `${cacao.p.domain} signs in ${cacao.p.iss} with ${cacao.p.nonce}`
  }
  async disconnect() {
    this.disconnects++
    this.session = undefined
  }
  async request<T>(args: RpcRequest, chain?: string): Promise<T> {
    this.requests.push({ args, chain })
    if (args.method === 'wallet_switchEthereumChain') {
      const id = String(Number((args.params as [{ chainId: string }])[0].chainId))
      this.defaultChain = id
      this.emit('chainChanged', id)
      return null as T
    }
    return this.answer(args) as T
  }
  async cleanupPendingPairings(options?: { deletePairings?: boolean }) {
    this.cleanups.push(options)
  }
  on(event: string, listener: Listener) {
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    set.add(listener)
  }
  removeListener(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener)
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) (listener as (...a: unknown[]) => void)(...args)
  }
}

const session = (chains: number[], accounts: string[] = [alice], methods = ['personal_sign', 'eth_sendTransaction', 'wallet_getCallsStatus']): WalletConnectSession => ({
  topic: 'session-topic',
  expiry: Math.floor(Date.now() / 1000) + 7 * 86400,
  namespaces: {
    eip155: {
      chains: chains.map((id) => `eip155:${id}`),
      accounts: chains.flatMap((id) => accounts.map((a) => `eip155:${id}:${a}`)),
      methods,
      events: ['chainChanged', 'accountsChanged'],
    },
  },
})

const parameters: WalletConnectParameters = {
  projectId: 'c'.repeat(32),
  apiUrl: 'http://127.0.0.1:8080',
  metadata: { name: 'Demo', description: 'A dapp', url: 'http://127.0.0.1:5173', icons: [] },
}

function setup(provider = new FakeUniversalProvider()) {
  const reads: RpcRequest[] = []
  const loads: UniversalProviderInit[] = []
  const rpc = custom({
    async request(request: RpcRequest) {
      reads.push(request)
      if (request.method === 'eth_getBalance') return '0x1'
      if (request.method === 'eth_call') return '0x'
      throw new Error(`unexpected ${request.method}`)
    },
  })
  const load = vi.fn(async (init: UniversalProviderInit) => {
    loads.push(init)
    return provider
  })
  const config = createConfig({
    chains: [mainnet, sepolia],
    connectors: [createWalletConnectConnector(parameters, load)],
    storage: null,
    transports: { [mainnet.id]: rpc, [sepolia.id]: rpc },
  })
  const connector = config.connectors[0]!
  const messages: unknown[] = []
  connector.emitter.on('message', (message) => messages.push(message))
  return { config, connector, provider, load, loads, reads, messages }
}

afterEach(() => vi.restoreAllMocks())

describe('walletConnect connector', () => {
  it('loads the SDK only when a connection is made', async () => {
    const { connector, load, loads, provider, config } = setup()
    expect(connector).toMatchObject({ id: 'walletConnect', name: 'WalletConnect', type: 'walletConnect' })
    expect(load).not.toHaveBeenCalled()

    const pending = connect(config, { connector, chainId: sepolia.id })
    await vi.waitFor(() => expect(provider.connectCalls).toHaveLength(1))
    expect(loads).toEqual([
      {
        projectId: parameters.projectId,
        relayUrl: 'ws://127.0.0.1:8080',
        apiUrl: 'http://127.0.0.1:8080',
        metadata: { name: 'Demo', description: 'A dapp', url: 'http://127.0.0.1:5173', icons: [] },
        logLevel: 'silent',
      },
    ])
    provider.approve!(session([sepolia.id, mainnet.id]))
    await pending
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('proposes optional namespaces with the asked-for chain first and latchd RPC URLs, and shows the URI', async () => {
    const { connector, provider, config, messages } = setup()
    const pending = connect(config, { connector, chainId: sepolia.id })
    await vi.waitFor(() => expect(provider.connectCalls).toHaveLength(1))
    const { optionalNamespaces } = provider.connectCalls[0]!
    expect(Object.keys(optionalNamespaces)).toEqual(['eip155'])
    expect(optionalNamespaces.eip155).toMatchObject({
      chains: ['eip155:11155111', 'eip155:1'],
      events: ['chainChanged', 'accountsChanged'],
      rpcMap: {
        '1': `http://127.0.0.1:8080/v1?chainId=eip155:1&projectId=${parameters.projectId}`,
        '11155111': `http://127.0.0.1:8080/v1?chainId=eip155:11155111&projectId=${parameters.projectId}`,
      },
    })
    expect(optionalNamespaces.eip155!.methods).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4']))
    expect(messages).toContainEqual(expect.objectContaining({ type: 'display_uri', data: 'wc:topic1@2?relay-protocol=irn&symKey=k' }))

    provider.approve!(session([sepolia.id, mainnet.id]))
    const result = await pending
    expect(result).toEqual({ accounts: [alice], chainId: sepolia.id })
    expect(getConnection(config)).toMatchObject({ status: 'connected', address: alice, chainId: sepolia.id })
  })

  it('starts on the asked-for chain when the wallet put another first', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector, chainId: sepolia.id })
    await vi.waitFor(() => expect(provider.approve).toBeDefined())
    provider.approve!(session([mainnet.id, sepolia.id]))
    await expect(pending).resolves.toMatchObject({ chainId: sepolia.id })
    expect(provider.requests[0]).toEqual({
      args: { method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(sepolia.id) }] },
      chain: 'eip155:1',
    })
  })

  it('adds non-EVM namespaces when configured', async () => {
    const provider = new FakeUniversalProvider()
    const config = createConfig({
      chains: [mainnet],
      connectors: [
        createWalletConnectConnector({ ...parameters, namespaces: { cosmos: ['cosmos:cosmoshub-4'] } }, async () => provider),
      ],
      storage: null,
      transports: { [mainnet.id]: custom({ request: async () => null }) },
    })
    void connect(config, { connector: config.connectors[0]! }).catch(() => {})
    await vi.waitFor(() => expect(provider.connectCalls).toHaveLength(1))
    expect(Object.keys(provider.connectCalls[0]!.optionalNamespaces)).toEqual(['eip155', 'cosmos'])
  })

  it('a decline rejects as user-rejected and wagmi goes back to disconnected', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.decline).toBeDefined())
    provider.decline!(Object.assign(new Error('User rejected.'), { code: 5000 }))
    await expect(pending).rejects.toBeInstanceOf(UserRejectedRequestError)
    expect(getConnection(config).status).toBe('disconnected')
  })

  it('cancelPairing abandons the attempt at once and expires its pairing', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.connectCalls).toHaveLength(1))
    ;(connector as unknown as { cancelPairing(): void }).cancelPairing()
    await expect(pending).rejects.toSatisfy((error: Error) => error instanceof UserRejectedRequestError && error.details === pairingResetMessage)
    // its pairings stop being listened to at once, then expire
    expect(provider.cleanups).toEqual([undefined, { deletePairings: true }])
    expect(getConnection(config).status).toBe('disconnected')
    // a late approval of the abandoned pairing no longer matters to this attempt
    provider.approve!(session([mainnet.id]))
  })

  it('restores a stored session without a new pairing', async () => {
    const provider = new FakeUniversalProvider()
    provider.session = session([mainnet.id, sepolia.id], [bob])
    const { connector, config } = setup(provider)
    await reconnect(config, { connectors: [connector] })
    expect(getConnection(config)).toMatchObject({ status: 'connected', address: bob, chainId: mainnet.id })
    expect(provider.connectCalls).toHaveLength(0)
  })

  it('does not restore without a session, or with an expired one', async () => {
    const { connector, config, provider } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    provider.session = { ...session([mainnet.id]), expiry: Math.floor(Date.now() / 1000) - 1 }
    expect(await connector.isAuthorized()).toBe(false)
    await reconnect(config, { connectors: [connector] })
    expect(getConnection(config).status).toBe('disconnected')
    expect(provider.connectCalls).toHaveLength(0)
  })

  it('follows the wallet: account and chain changes, and its disconnect', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.approve).toBeDefined())
    provider.approve!(session([mainnet.id, sepolia.id], [alice, bob]))
    await pending
    provider.emit('accountsChanged', [bob.toLowerCase()])
    expect(getConnection(config).address).toBe(bob)
    provider.emit('chainChanged', String(sepolia.id))
    expect(getConnection(config).chainId).toBe(sepolia.id)
    provider.emit('session_delete', { topic: 'session-topic' })
    expect(getConnection(config).status).toBe('disconnected')
  })

  it('disconnecting deletes the session on the wallet too', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.approve).toBeDefined())
    provider.approve!(session([mainnet.id]))
    await pending
    await disconnect(config, { connector })
    expect(provider.disconnects).toBe(1)
    expect(getConnection(config).status).toBe('disconnected')
    // the session's events no longer reach wagmi
    provider.emit('accountsChanged', [bob])
    expect(getConnection(config).status).toBe('disconnected')
  })

  it('switches between approved chains locally', async () => {
    const { connector, provider, config } = setup()
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.approve).toBeDefined())
    provider.approve!(session([mainnet.id, sepolia.id]))
    await pending
    await switchChain(config, { chainId: sepolia.id })
    expect(getConnection(config).chainId).toBe(sepolia.id)
  })
})

describe('its EIP-1193 provider', () => {
  async function connected(methods?: string[]) {
    const s = setup()
    const pending = connect(s.config, { connector: s.connector })
    await vi.waitFor(() => expect(s.provider.approve).toBeDefined())
    s.provider.approve!(session([mainnet.id, sepolia.id], [alice], methods))
    await pending
    const eip1193 = (await s.connector.getProvider()) as WalletConnectEip1193Provider
    return { ...s, eip1193 }
  }

  it('sends approved wallet methods to the wallet on the current chain', async () => {
    const { eip1193, provider } = await connected()
    await expect(eip1193.request({ method: 'personal_sign', params: ['0x68656c6c6f', alice] })).resolves.toBe('0xsigned')
    expect(provider.requests.at(-1)).toEqual({ args: { method: 'personal_sign', params: ['0x68656c6c6f', alice] }, chain: 'eip155:1' })
  })

  it('turns the wallet’s error answer into an EIP-1193 error', async () => {
    const { eip1193, provider } = await connected()
    provider.answer = () => {
      throw { code: 4001, message: 'User rejected the request.' }
    }
    const failure = await eip1193.request({ method: 'personal_sign', params: ['0x00', alice] }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    expect(failure).toMatchObject({ code: 4001, message: 'User rejected the request.' })
  })

  it('answers chain id and accounts locally', async () => {
    const { eip1193 } = await connected()
    await expect(eip1193.request({ method: 'eth_chainId' })).resolves.toBe('0x1')
    await expect(eip1193.request({ method: 'eth_accounts' })).resolves.toEqual([alice])
  })

  it('reads through the wagmi transport, never the SDK’s own RPC', async () => {
    const { eip1193, provider, reads } = await connected()
    const before = provider.requests.length
    await expect(eip1193.request({ method: 'eth_call', params: [{ to: alice, data: '0x' }, 'latest'] })).resolves.toBe('0x')
    expect(reads.at(-1)).toMatchObject({ method: 'eth_call' })
    expect(provider.requests).toHaveLength(before)
  })

  it('refuses wallet methods the session did not approve (4200) rather than asking a node', async () => {
    const { eip1193, reads } = await connected(['personal_sign'])
    await expect(eip1193.request({ method: 'eth_signTypedData_v4', params: [] })).rejects.toMatchObject({ code: 4200 })
    await expect(eip1193.request({ method: 'wallet_getCallsStatus', params: ['0x01'] })).rejects.toMatchObject({ code: 4200 })
    expect(reads.some((r) => r.method.startsWith('eth_sign') || r.method.startsWith('wallet_'))).toBe(false)
  })

  it('asks the wallet itself for call status (the SDK would try its bundler endpoint first)', async () => {
    const { eip1193, provider } = await connected()
    await eip1193.request({ method: 'wallet_getCallsStatus', params: ['0x01'] })
    expect(provider.clientRequests).toEqual([
      { topic: 'session-topic', chainId: 'eip155:1', request: { method: 'wallet_getCallsStatus', params: ['0x01'] } },
    ])
  })

  it('forwards the wallet’s chain changes to the app as hex', async () => {
    const { eip1193, provider } = await connected()
    const seen: unknown[] = []
    eip1193.on('chainChanged', (id) => seen.push(id))
    provider.emit('chainChanged', String(sepolia.id))
    expect(seen).toEqual([numberToHex(sepolia.id)])
  })

  it('fails clearly before a session exists', async () => {
    const { connector } = setup()
    const eip1193 = (await connector.getProvider()) as WalletConnectEip1193Provider
    await expect(eip1193.request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: 4900 })
  })
})

describe('walletConnect connector: one-click sign-in (wc_sessionAuthenticate)', () => {
  const cacaoOf = (chainId: number, address: string, nonce: string): Cacao => ({
    h: { t: 'caip122' },
    p: { iss: `did:pkh:eip155:${chainId}:${address}`, domain: 'app.example', aud: 'https://app.example', nonce, version: '1', iat: '2026-01-01T00:00:00Z' },
    s: { t: 'eip191', s: '0xsignature' },
  })
  /** A sign-in hook recording what the connector gives it. */
  function hook(complete: (signedIn: readonly WalletConnectSignedIn[]) => Promise<void> = async () => {}) {
    const requests: string[] = []
    const completed: (readonly WalletConnectSignedIn[])[] = []
    const signIn: WalletConnectSignIn = {
      async request(chainId) {
        requests.push(chainId)
        return { domain: 'app.example', uri: 'https://app.example', nonce: 'n0nce123', statement: 'Sign in to the app' }
      },
      async complete(signedIn) {
        completed.push(signedIn)
        await complete(signedIn)
      },
    }
    return { signIn, requests, completed }
  }

  it('asks the wallet to sign in with the hook’s nonce for every chain and hands back the CACAO and its message', async () => {
    const { connector, provider, config, messages } = setup()
    const { signIn, requests, completed } = hook()
    setWalletConnectSignIn(connector.emitter, signIn)
    const pending = connect(config, { connector, chainId: sepolia.id })
    await vi.waitFor(() => expect(provider.authenticateCalls).toHaveLength(1))
    expect(provider.connectCalls).toEqual([])
    expect(requests).toEqual(['eip155:11155111'])
    expect(provider.authenticateCalls[0]).toMatchObject({
      chains: ['eip155:11155111', 'eip155:1'],
      domain: 'app.example',
      uri: 'https://app.example',
      nonce: 'n0nce123',
      statement: 'Sign in to the app',
    })
    expect(provider.authenticateCalls[0]!.methods).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction']))
    expect(messages).toContainEqual(expect.objectContaining({ type: 'display_uri', data: 'wc:auth1@2?relay-protocol=irn&symKey=k' }))

    const cacao = cacaoOf(sepolia.id, alice, 'n0nce123')
    provider.answerAuthenticate!(session([sepolia.id]), [cacao])
    await expect(pending).resolves.toMatchObject({ accounts: [alice], chainId: sepolia.id })
    expect(completed).toEqual([
      [{ account: `eip155:11155111:${alice}`, message: `app.example signs in did:pkh:eip155:11155111:${alice} with n0nce123`, signature: '0xsignature', cacao }],
    ])
  })

  it('stays connected when the wallet answers with a plain session, or the sign-in is refused', async () => {
    const { connector, provider, config } = setup()
    const refused = hook(async () => {
      throw new Error('latchd refused the signature')
    })
    setWalletConnectSignIn(connector.emitter, refused.signIn)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const pending = connect(config, { connector })
    await vi.waitFor(() => expect(provider.authenticateCalls).toHaveLength(1))
    provider.answerAuthenticate!(session([mainnet.id]), [cacaoOf(mainnet.id, alice, 'n0nce123')])
    await expect(pending).resolves.toMatchObject({ accounts: [alice] })
    expect(refused.completed).toHaveLength(1)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('one-click sign-in was not accepted'), expect.any(Error))
    await disconnect(config, { connector })

    const plain = hook()
    setWalletConnectSignIn(connector.emitter, plain.signIn)
    const again = connect(config, { connector })
    await vi.waitFor(() => expect(provider.authenticateCalls).toHaveLength(2))
    provider.answerAuthenticate!(session([mainnet.id]))
    await expect(again).resolves.toMatchObject({ accounts: [alice] })
    expect(plain.completed).toEqual([])
  })

  it('proposes a plain session when a non-EVM namespace is requested, or no sign-in hook is set', async () => {
    const provider = new FakeUniversalProvider()
    const config = createConfig({
      chains: [mainnet],
      connectors: [createWalletConnectConnector({ ...parameters, namespaces: { solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] } }, async () => provider)],
      storage: null,
      transports: { [mainnet.id]: custom({ request: async () => null }) },
    })
    const connector = config.connectors[0]!
    setWalletConnectSignIn(connector.emitter, hook().signIn)
    void connect(config, { connector }).catch(() => {})
    await vi.waitFor(() => expect(provider.connectCalls).toHaveLength(1))
    expect(provider.authenticateCalls).toEqual([])

    const plain = setup()
    void connect(plain.config, { connector: plain.connector }).catch(() => {})
    await vi.waitFor(() => expect(plain.provider.connectCalls).toHaveLength(1))
    expect(plain.provider.authenticateCalls).toEqual([])
  })
})
