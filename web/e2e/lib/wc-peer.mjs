// WalletConnect peers in Node for tests against latchd's relay: a dapp and a wallet built on the real
// @walletconnect/sign-client 2.21.8 (the last Apache-2.0 release), talking to no host but latchd.
//
// API
// ---
//   const dapp = await createDapp({ relayUrl, projectId })
//     relayUrl   ws://127.0.0.1:<port> — latchd's API listener with ws:// (relayUrlOf(apiUrl) makes it)
//     projectId  a project latchd knows (latchd dev: info.projectId)
//     storage?   a MemoryStorage to keep state across createDapp calls (a page reload / tab reopened)
//     name?      customStoragePrefix, needed to reopen with the same storage (default: unique)
//   const { uri, approval } = await dapp.connect({ chains: ['eip155:31337'] })  // optional methods, events
//   const session = await approval()                       // resolves once the wallet approved
//   await dapp.request(session.topic, 'eip155:31337', 'personal_sign', [message, address])
//   dapp.events                                            // session_event / session_delete / session_update seen
//   await dapp.next('session_event')                       // waits for the next event of that name
//   await dapp.disconnect(session.topic)
//   await dapp.close()                                     // closes the socket and stops every timer
//
//   const wallet = await createWallet({ relayUrl, projectId, privateKey, chains })
//     privateKey `0x…` secp256k1 key (latchd dev: any of the mnemonic's accounts)
//     chains     [{ chainId, rpcUrl }] (latchd dev: info.networks) or bare chain ids (then no transactions)
//   wallet.address                                         // the account it approves sessions with
//   await wallet.pair(uri)                                 // proposals are approved automatically for the
//                                                          // requested eip155 chains it has (required chains
//                                                          // it lacks: rejected with UNSUPPORTED_CHAINS)
//   await wallet.nextSession()                             // the next session it approved
//   wallet.rejectNext(method?)                             // the next proposal ('session_proposal'), sign-in
//                                                          // ('session_authenticate') or request
//                                                          // (of method, or any) is rejected: 4001 / 5000
//   wallet.requests                                        // [{ topic, id, chainId, method, params, result|error }]
//   wallet.authentications                                 // one-click sign-ins it signed (wc_sessionAuthenticate):
//                                                          // [{ id, authPayload, message, signature }]
//   await wallet.next('session_delete')                    // also 'session_proposal', 'session_request'
//   await wallet.emit(topic, 'eip155:31337', 'accountsChanged', [address])
//   await wallet.disconnect(topic)
//   await wallet.close()
//
// The wallet answers personal_sign, eth_sign, eth_signTypedData_v4 (signed with the key through viem),
// eth_sendTransaction (signed and sent to the chain's rpcUrl), eth_accounts / eth_requestAccounts,
// eth_chainId, wallet_switchEthereumChain (chains it has), and forwards read-only eth_* calls to rpcUrl.
// Anything else is answered 4200 (unsupported method).
//
// Talking to no host but latchd: telemetry (pulse.walletconnect.org) is off (telemetryEnabled: false), and the
// Verify API (verify.walletconnect.org, fetched by the wallet for every proposal and request) is replaced by
// "no attestation", which is what a relay without a verify server means: sessions get validation UNKNOWN.
// guardNetwork() makes a test fail when anything in the process still reaches another host.
import net from 'node:net';
import { SignClient } from '@walletconnect/sign-client';
import { createWalletClient, defineChain, hexToBigInt, http, isHex, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

// Every client gets its own core (sign-client otherwise shares one per storage prefix through globalThis).
process.env.DISABLE_GLOBAL_CORE = 'true';

/** sign-client's SDK errors the peers use (getSdkError wording). */
const sdkErrors = {
  userRejected: { code: 5000, message: 'User rejected.' },
  unsupportedChains: { code: 5100, message: 'Unsupported chains.' },
  userDisconnected: { code: 6000, message: 'User disconnected.' },
};

/** EIP-1193 errors the wallet answers requests with. */
const rpcErrors = {
  userRejected: { code: 4001, message: 'User rejected the request.' },
  unsupported: { code: 4200, message: 'The requested method is not supported by this wallet.' },
  unknownChain: (/** @type {string} */ hex) => ({ code: 4902, message: `Unrecognized chain ID "${hex}".` }),
};

const walletMethods = [
  'personal_sign',
  'eth_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'wallet_switchEthereumChain',
];
const walletEvents = ['accountsChanged', 'chainChanged'];

/** Read-only methods the wallet forwards to the chain's RPC, as wallets do. */
const forwarded = new Set([
  'eth_call',
  'eth_getBalance',
  'eth_blockNumber',
  'eth_estimateGas',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_gasPrice',
  'eth_getTransactionCount',
  'eth_getCode',
]);

/** ws://host:port of latchd's relay for its API URL (http://host:port). */
export function relayUrlOf(/** @type {string} */ apiUrl) {
  return apiUrl.replace(/^http/, 'ws').replace(/\/$/, '');
}

/**
 * sign-client's key-value storage, in memory. Pass the same instance to a second createDapp/createWallet (with the
 * same name) to reopen a peer with its sessions, as a reloaded page would.
 */
export class MemoryStorage {
  constructor() {
    /** @type {Map<string, unknown>} */
    this.map = new Map();
  }
  async getKeys() {
    return [...this.map.keys()];
  }
  async getEntries() {
    return [...this.map.entries()].map(([k, v]) => /** @type {[string, any]} */ ([k, structuredClone(v)]));
  }
  /** @param {string} key */
  async getItem(key) {
    const v = this.map.get(key);
    return v === undefined ? undefined : /** @type {any} */ (structuredClone(v));
  }
  /** @param {string} key @param {unknown} value */
  async setItem(key, value) {
    this.map.set(key, structuredClone(value));
  }
  /** @param {string} key */
  async removeItem(key) {
    this.map.delete(key);
  }
}

/**
 * @typedef {object} PeerOptions
 * @property {string} relayUrl
 * @property {string} projectId
 * @property {MemoryStorage} [storage]
 * @property {string} [name]  storage prefix; reuse it with the same storage to reopen a peer
 * @property {string} [logger]  sign-client log level (default: LATCH_WC_LOG or 'silent')
 */

let peerCount = 0;

/**
 * @param {PeerOptions} options
 * @param {{name: string, description: string, url: string, icons: string[]}} metadata
 */
async function initClient(options, metadata) {
  const client = await SignClient.init({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    metadata,
    customStoragePrefix: options.name ?? `latch-peer-${process.pid}-${++peerCount}`,
    storage: /** @type {any} */ (options.storage ?? new MemoryStorage()),
    logger: options.logger ?? process.env.LATCH_WC_LOG ?? 'silent',
    telemetryEnabled: false,
  });
  // No Verify API: a self-hosted relay has no verify server, so every context stays UNKNOWN.
  client.core.verify.register = async () => '';
  client.core.verify.resolve = async () => undefined;
  return client;
}

/**
 * Hands the engine the messages that arrived before it was initialised. A client reopened with sessions connects
 * during init and the relay delivers its mailbox at once; sign-client 2.21.8 parks such messages (and every later
 * one while any are parked) until the app calls processRelayMessageCache(), once its listeners are registered.
 * @param {any} client
 */
function processEarlyMessages(client) {
  client.engine.processRelayMessageCache();
}

/**
 * Closes a client as a closed tab would: its socket, its timers (so the test process can exit), and any work still
 * in flight. Without the last part a late publish of the closed client would open a new socket (sign-client's
 * request() reconnects) and take the messages meant for the client reopened from the same storage. Requests made
 * after close vanish, as from a closed tab; they are reported as done so that sign-client settles their promises
 * instead of leaving 60 s timeouts behind.
 * @param {any} client
 */
async function closeClient(client) {
  client.core.heartbeat.stop();
  const relayer = client.core.relayer;
  relayer.request = async () => true;
  relayer.transportOpen = async () => {};
  await relayer.transportClose().catch(() => {});
}

/**
 * Records events of a client and lets a test wait for them in order, per event name.
 * @param {any} client
 * @param {string[]} names
 */
function eventLog(client, names) {
  /** @type {{name: string, payload: any}[]} */
  const events = [];
  /** @type {Map<string, number>} how many events of each name next() has returned */
  const taken = new Map();
  /** @type {Map<string, (() => void)[]>} */
  const waiters = new Map();
  for (const name of names) {
    client.on(name, (/** @type {any} */ payload) => {
      events.push({ name, payload });
      for (const wake of waiters.get(name)?.splice(0) ?? []) wake();
    });
  }
  /**
   * The next event of that name (the first one not yet returned), waiting for it if needed.
   * @param {string} name
   * @param {number} [timeoutMs]
   * @returns {Promise<any>}
   */
  const next = async (name, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ofName = events.filter((e) => e.name === name);
      const n = taken.get(name) ?? 0;
      if (ofName.length > n) {
        taken.set(name, n + 1);
        return ofName[n].payload;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${name} within ${timeoutMs} ms`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        const list = waiters.get(name) ?? [];
        list.push(() => {
          clearTimeout(timer);
          resolve(undefined);
        });
        waiters.set(name, list);
      });
    }
  };
  return { events, next };
}

/**
 * A dapp: proposes sessions and sends requests.
 * @param {PeerOptions} options
 */
export async function createDapp(options) {
  const client = await initClient(options, {
    name: 'Latch test dapp',
    description: 'A dapp in a Node test',
    url: 'http://localhost',
    icons: [],
  });
  const log = eventLog(client, ['session_event', 'session_delete', 'session_update', 'session_expire']);
  processEarlyMessages(client);
  return {
    client,
    events: log.events,
    next: log.next,
    /**
     * Proposes a session; approval() resolves with it once the wallet approves.
     * @param {{chains: string[], methods?: string[], events?: string[]}} params
     */
    async connect({ chains, methods = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'], events = walletEvents }) {
      const { uri, approval } = await client.connect({
        optionalNamespaces: { eip155: { chains, methods, events } },
      });
      if (!uri) throw new Error('connect() gave no pairing URI');
      return { uri, approval };
    },
    /**
     * @param {string} topic
     * @param {string} chainId  CAIP-2
     * @param {string} method
     * @param {unknown} params
     */
    request(topic, chainId, method, params) {
      return client.request({ topic, chainId, request: { method, params } });
    },
    /** @param {string} topic */
    disconnect(topic) {
      return client.disconnect({ topic, reason: sdkErrors.userDisconnected });
    },
    close: () => closeClient(client),
  };
}

/**
 * @typedef {number | {chainId: number, rpcUrl?: string}} WalletChain
 * @typedef {object} WalletRequest
 * @property {string} topic
 * @property {number} id
 * @property {string} chainId
 * @property {string} method
 * @property {any} params
 * @property {unknown} [result]
 * @property {{code: number, message: string}} [error]
 */

/**
 * A wallet that approves what it can and answers requests with its key.
 * @param {PeerOptions & {privateKey: `0x${string}`, chains: WalletChain[]}} options
 */
export async function createWallet(options) {
  const account = privateKeyToAccount(options.privateKey);
  /** @type {Map<number, {chainId: number, rpcUrl?: string}>} */
  const chains = new Map(
    options.chains.map((c) => (typeof c === 'number' ? [c, { chainId: c }] : [c.chainId, c])),
  );
  const client = await initClient(options, {
    name: 'Latch test wallet',
    description: 'A WalletConnect wallet in a Node test',
    url: 'http://localhost',
    icons: [],
  });
  const log = eventLog(client, ['session_delete', 'session_proposal', 'session_request']);
  /** @type {WalletRequest[]} */
  const requests = [];
  /** @type {{id: number, authPayload: any, message: string, signature: string}[]} sign-in requests it signed */
  const authentications = [];
  /** @type {(string | undefined)[]} */
  const rejections = [];
  /** @type {((session: any) => void)[]} */
  const sessionWaiters = [];
  /** @type {any[]} */
  const approved = [];
  let sessionsSeen = 0;

  /** @param {string} kind */
  const takeRejection = (kind) => {
    const i = rejections.findIndex((m) => m === undefined || m === kind);
    if (i < 0) return false;
    rejections.splice(i, 1);
    return true;
  };

  client.on('session_proposal', async (/** @type {any} */ { id, params }) => {
    try {
      if (takeRejection('session_proposal')) {
        await client.reject({ id, reason: sdkErrors.userRejected });
        return;
      }
      const namespaces = approveNamespaces(params, [...chains.keys()], account.address);
      if (!namespaces) {
        await client.reject({ id, reason: sdkErrors.unsupportedChains });
        return;
      }
      const { topic, acknowledged } = await client.approve({ id, namespaces });
      await acknowledged();
      const session = client.session.get(topic);
      approved.push(session);
      sessionWaiters.shift()?.(session);
    } catch (err) {
      console.error('wc-peer wallet: approving the proposal failed', err);
    }
  });

  // One-click sign-in (wc_sessionAuthenticate): the wallet signs the dapp's sign-in message once, as a CACAO
  // (CAIP-74) whose issuer is its account on the first requested chain it has, and the session comes with it.
  client.on('session_authenticate', async (/** @type {any} */ { id, params }) => {
    try {
      if (takeRejection('session_authenticate')) {
        await client.rejectSessionAuthenticate({ id, reason: sdkErrors.userRejected });
        return;
      }
      const supported = params.authPayload.chains.filter((/** @type {string} */ c) => c.startsWith('eip155:') && chains.has(Number(c.split(':')[1])));
      if (supported.length === 0) {
        await client.rejectSessionAuthenticate({ id, reason: sdkErrors.unsupportedChains });
        return;
      }
      const authPayload = { ...params.authPayload, chains: supported };
      const iss = `did:pkh:${supported[0]}:${account.address}`;
      const message = client.formatAuthMessage({ request: authPayload, iss });
      const signature = await account.signMessage({ message });
      const { chains: _, type: __, ...fields } = authPayload;
      const cacao = { h: { t: /** @type {const} */ ('caip122') }, p: { ...fields, iss }, s: { t: /** @type {const} */ ('eip191'), s: signature } };
      authentications.push({ id, authPayload, message, signature });
      const { session } = await client.approveSessionAuthenticate({ id, auths: [cacao] });
      if (session) {
        approved.push(session);
        sessionWaiters.shift()?.(session);
      }
    } catch (err) {
      console.error('wc-peer wallet: answering the sign-in request failed', err);
    }
  });

  client.on('session_request', async (/** @type {any} */ { topic, id, params }) => {
    const { request, chainId } = params;
    /** @type {WalletRequest} */
    const record = { topic, id, chainId, method: request.method, params: request.params };
    requests.push(record);
    let response;
    try {
      if (takeRejection(request.method)) throw new RpcError(rpcErrors.userRejected);
      record.result = await answer(request.method, request.params, chainId, topic);
      response = { id, jsonrpc: '2.0', result: record.result };
    } catch (err) {
      record.error = err instanceof RpcError ? err.rpc : { code: -32603, message: String(/** @type {any} */ (err)?.message ?? err) };
      response = { id, jsonrpc: '2.0', error: record.error };
    }
    await client.respond({ topic, response });
  });

  /**
   * @param {string} method
   * @param {any} params
   * @param {string} caipChainId
   * @param {string} topic
   */
  async function answer(method, params, caipChainId, topic) {
    const chainId = Number(caipChainId.split(':')[1]);
    const chain = chains.get(chainId);
    if (!chain) throw new RpcError(rpcErrors.unknownChain(toHex(chainId)));
    switch (method) {
      case 'personal_sign': {
        const [message, address] = params;
        checkAddress(address);
        return account.signMessage({ message: isHex(message) ? { raw: message } : message });
      }
      case 'eth_sign': {
        const [address, message] = params;
        checkAddress(address);
        return account.signMessage({ message: { raw: message } });
      }
      case 'eth_signTypedData_v4': {
        const [address, data] = params;
        checkAddress(address);
        const typed = typeof data === 'string' ? JSON.parse(data) : data;
        const { EIP712Domain: _, ...types } = typed.types;
        return account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message });
      }
      case 'eth_sendTransaction': {
        const [tx] = params;
        checkAddress(tx.from ?? account.address);
        if (!chain.rpcUrl) throw new RpcError({ code: -32603, message: `no RPC URL for chain ${chainId}` });
        const walletClient = createWalletClient({
          account,
          chain: defineChain({ id: chainId, name: `chain ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } }),
          transport: http(chain.rpcUrl),
        });
        const big = (/** @type {string | undefined} */ v) => (v === undefined ? undefined : hexToBigInt(/** @type {`0x${string}`} */ (v)));
        /** @type {any} the dapp's transaction, as EIP-1474 hex fields */
        const request = {
          to: tx.to,
          data: tx.data ?? tx.input,
          value: big(tx.value),
          gas: big(tx.gas ?? tx.gasLimit),
          nonce: tx.nonce === undefined ? undefined : Number(tx.nonce),
        };
        return walletClient.sendTransaction(request);
      }
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [account.address];
      case 'eth_chainId':
        return toHex(chainId);
      case 'wallet_switchEthereumChain': {
        const target = Number(params?.[0]?.chainId);
        if (!chains.has(target)) throw new RpcError(rpcErrors.unknownChain(params?.[0]?.chainId));
        await client.emit({ topic, chainId: `eip155:${target}`, event: { name: 'chainChanged', data: toHex(target) } });
        return null;
      }
    }
    if (forwarded.has(method) && chain.rpcUrl) {
      const res = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = await res.json();
      if (body.error) throw new RpcError(body.error);
      return body.result;
    }
    throw new RpcError(rpcErrors.unsupported);
  }

  processEarlyMessages(client);

  /** @param {string} address */
  function checkAddress(address) {
    if (typeof address !== 'string' || address.toLowerCase() !== account.address.toLowerCase()) {
      throw new RpcError({ code: 4100, message: `The wallet does not hold ${address}` });
    }
  }

  return {
    client,
    account,
    address: account.address,
    requests,
    authentications,
    events: log.events,
    next: log.next,
    /** @param {string} uri */
    pair: (uri) => client.pair({ uri }),
    /** The next session the wallet approves (or one approved since the last call). */
    nextSession() {
      if (approved.length > sessionsSeen) return Promise.resolve(approved[sessionsSeen++]);
      return new Promise((resolve) => sessionWaiters.push((s) => {
        sessionsSeen++;
        resolve(s);
      }));
    },
    /** @param {string} [method]  'session_proposal', a request method, or any when omitted */
    rejectNext(method) {
      rejections.push(method);
    },
    /**
     * @param {string} topic
     * @param {string} chainId
     * @param {string} name
     * @param {unknown} data
     */
    emit(topic, chainId, name, data) {
      return client.emit({ topic, chainId, event: { name, data } });
    },
    /** @param {string} topic */
    disconnect(topic) {
      return client.disconnect({ topic, reason: sdkErrors.userDisconnected });
    },
    close: () => closeClient(client),
  };
}

class RpcError extends Error {
  /** @param {{code: number, message: string}} rpc */
  constructor(rpc) {
    super(rpc.message);
    this.rpc = rpc;
  }
}

/**
 * The eip155 namespace to approve: the requested chains the wallet has (all of its chains when the dapp asked for
 * none), the requested methods and events it supports plus every required one. null when a required chain is
 * missing or a required namespace is not eip155.
 * @param {any} proposal
 * @param {number[]} have
 * @param {string} address
 */
export function approveNamespaces(proposal, have, address) {
  /** @type {Set<string>} */
  const requested = new Set();
  /** @type {Set<string>} */
  const required = new Set();
  /** @type {Set<string>} */
  const methods = new Set();
  /** @type {Set<string>} */
  const events = new Set();
  for (const [kind, namespaces] of [['required', proposal.requiredNamespaces ?? {}], ['optional', proposal.optionalNamespaces ?? {}]]) {
    for (const [key, ns] of Object.entries(namespaces)) {
      const [namespace, reference] = key.split(':');
      if (namespace !== 'eip155') {
        if (kind === 'required') return null;
        continue;
      }
      const keyChains = reference ? [key] : (ns.chains ?? []);
      for (const c of keyChains) {
        requested.add(c);
        if (kind === 'required') required.add(c);
      }
      for (const m of ns.methods ?? []) if (kind === 'required' || walletMethods.includes(m)) methods.add(m);
      for (const e of ns.events ?? []) if (kind === 'required' || walletEvents.includes(e)) events.add(e);
    }
  }
  const haveCaip = have.map((id) => `eip155:${id}`);
  if ([...required].some((c) => !haveCaip.includes(c))) return null;
  const chains = requested.size ? haveCaip.filter((c) => requested.has(c)) : haveCaip;
  if (!chains.length) return null;
  return {
    eip155: {
      chains,
      methods: [...methods],
      events: [...events],
      accounts: chains.map((c) => `${c}:${address}`),
    },
  };
}

/**
 * Makes every TCP connection and fetch of this process to a host other than loopback fail, and records it.
 * Call once per test file, before creating peers; check `violations` (empty) at the end.
 * @returns {{violations: string[], restore: () => void}}
 */
export function guardNetwork() {
  /** @type {string[]} */
  const violations = [];
  const loopback = (/** @type {string | undefined} */ host) =>
    !host || host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
  const originalConnect = net.Socket.prototype.connect;
  /** @this {net.Socket} @param {...any} args */
  function guardedConnect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    let host;
    if (first && typeof first === 'object') host = first.path ? undefined : (first.host ?? 'localhost');
    else if (typeof first === 'number' || /^\d+$/.test(String(first))) host = typeof args[1] === 'string' ? args[1] : 'localhost';
    if (!loopback(host)) {
      violations.push(`tcp ${host}`);
      process.nextTick(() => this.destroy(new Error(`guardNetwork: connection to ${host} blocked`)));
      return this;
    }
    return /** @type {any} */ (originalConnect).apply(this, args);
  }
  net.Socket.prototype.connect = /** @type {any} */ (guardedConnect);
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (!loopback(url.hostname)) {
      violations.push(`fetch ${url.origin}${url.pathname}`);
      throw new TypeError(`guardNetwork: fetch to ${url.origin} blocked`);
    }
    return originalFetch(input, init);
  };
  return {
    violations,
    restore() {
      net.Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    },
  };
}
