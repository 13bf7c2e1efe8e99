// Node side of the Latch Test Wallet: holds the dev keys, plays the user, signs, sends, and forwards reads to
// the dev chains. The browser side (test-wallet.js) is injected into the page and calls in through a binding.
import { readFileSync } from 'node:fs';
import { createWalletClient, defineChain, http, isAddressEqual, isHex, numberToHex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';

const browserSource = readFileSync(new URL('./test-wallet.js', import.meta.url), 'utf8');
const configMarker = '/* @latch-test-wallet-config */ null';

/** Name of the binding the page calls; a test page has no reason to define it. */
const bindingName = '__latchTestWalletBridge';

const walletIcon =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#1f6feb"/>' +
      '<path d="M30 24h10v38h26v10H30z" fill="#fff"/></svg>',
  ).toString('base64');

/** EIP-1193 / EIP-1474 errors, with MetaMask's wording where dapps match on it. */
const errors = {
  userRejected: { code: 4001, message: 'User rejected the request.' },
  unauthorized: { code: 4100, message: 'The requested account and/or method has not been authorized by the user.' },
  unsupported: { code: 4200, message: 'The requested method is not supported by this Ethereum provider.' },
  invalidParams: (message) => ({ code: -32602, message }),
  internal: (message) => ({ code: -32603, message }),
  unknownChain: (chainIdHex) => ({
    code: 4902,
    message: `Unrecognized chain ID "${chainIdHex}". Try adding the chain using wallet_addEthereumChain first.`,
  }),
};

/** Read-only methods answered by the current chain's RPC, as a wallet does. */
const forwardedMethods = new Set([
  'eth_call',
  'eth_getBalance',
  'eth_blockNumber',
  'eth_estimateGas',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getCode',
  'eth_getTransactionCount',
  'eth_getLogs',
  'eth_getStorageAt',
]);

/** Methods that ask the (scripted) user first; rejectNext/holdNext decide the next such prompt. */
const promptingMethods = new Set([
  'eth_requestAccounts',
  'wallet_requestPermissions',
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
]);

/** A JSON-RPC error to hand back to the page. */
class WalletError extends Error {
  /** @param {{code: number, message: string, data?: unknown}} error */
  constructor(error) {
    super(error.message);
    this.rpc = error;
  }
}

/**
 * @typedef {object} TestWalletConfig  What the browser side is injected with.
 * @property {string} name
 * @property {string} rdns
 * @property {string} icon          data URI
 * @property {string} chainId       hex chain id a new site starts on
 * @property {string} storageKey    localStorage key of the per-site state
 * @property {string} bindingName
 * @property {boolean} allFrames    also inject into iframes
 * @property {boolean} windowEthereum  also set window.ethereum (legacy injection)
 */

/**
 * The browser source of the wallet with its config in place, for page.addInitScript({content}).
 * @param {Partial<TestWalletConfig> & {chainId: string}} config
 */
export function testWalletSource(config) {
  /** @type {TestWalletConfig} */
  const full = {
    name: 'Latch Test Wallet',
    rdns: 'dev.latch.testwallet',
    icon: walletIcon,
    storageKey: 'latch-test-wallet',
    bindingName,
    allFrames: false,
    windowEthereum: false,
    ...config,
  };
  if (!browserSource.includes(configMarker)) throw new Error('test-wallet.js lost its config marker');
  return browserSource.replace(configMarker, JSON.stringify(full));
}

/**
 * @typedef {object} Chain  A chain the wallet knows: the dev networks, plus any added with wallet_addEthereumChain.
 * @property {number} id
 * @property {string} name
 * @property {string} rpcUrl
 *
 * @typedef {object} Prompt  One time the scripted user was asked.
 * @property {string} method
 * @property {unknown} params
 * @property {string} origin
 * @property {'approved' | 'rejected'} [decision]  set once decided
 *
 * @typedef {object} HeldPrompt  Returned by holdNext: the test decides when and how the user answers.
 * @property {Promise<Prompt>} prompted  resolves when the prompt opens
 * @property {() => void} approve
 * @property {(error?: {code: number, message: string}) => void} reject
 *
 * @typedef {object} InstallOptions
 * @property {import('../lib/latchd.mjs').DevInfo} info  /dev/info of the latchd under test
 * @property {number} [accountIndex]  mnemonic account to use (default 0)
 * @property {string} [mnemonic]      default: info.mnemonic
 * @property {`0x${string}`} [privateKey]  instead of the mnemonic
 * @property {number} [chainId]       chain a new site starts on (default: the first dev network)
 * @property {string} [name]
 * @property {string} [rdns]
 * @property {boolean} [allFrames]
 * @property {boolean} [windowEthereum]
 */

/**
 * Injects the wallet into a page (or every page of a context) and returns its control API.
 * Call before page.goto.
 * @param {import('playwright-core').Page | import('playwright-core').BrowserContext} target
 * @param {InstallOptions} options
 */
export async function installTestWallet(target, options) {
  const wallet = new TestWallet(target, options);
  await target.exposeBinding(bindingName, (source, message) => wallet.handle(source, message));
  await target.addInitScript({
    content: testWalletSource({
      chainId: numberToHex(options.chainId ?? options.info.networks[0].chainId),
      ...(options.name && { name: options.name }),
      ...(options.rdns && { rdns: options.rdns }),
      allFrames: options.allFrames ?? false,
      windowEthereum: options.windowEthereum ?? false,
    }),
  });
  return wallet;
}

/** The second scripted wallet's EIP-6963 identity (installSecondTestWallet). */
export const secondTestWallet = { name: 'Second Test Wallet', rdns: 'dev.latch.secondwallet' };

/**
 * A second scripted wallet in the same page, beside installTestWallet's (multi-wallet tests): its own EIP-6963
 * identity (secondTestWallet), binding and per-site storage, mnemonic account #1. The in-page script guards
 * against a double injection with a registry symbol; the second copy gets a symbol of its own.
 * Call before page.goto.
 * @param {import('playwright-core').Page} page
 * @param {InstallOptions['info']} info
 */
export async function installSecondTestWallet(page, info) {
  const wallet = new TestWallet(page, { info, accountIndex: 1 });
  const secondBinding = '__latchSecondTestWalletBridge';
  await page.exposeBinding(secondBinding, (source, message) => wallet.handle(source, message));
  const source = testWalletSource({
    chainId: numberToHex(info.networks[0].chainId),
    ...secondTestWallet,
    storageKey: 'latch-second-test-wallet',
    bindingName: secondBinding,
  });
  const registry = "Symbol.for('latch.testWallet')";
  if (!source.includes(registry)) throw new Error('test-wallet.js lost its registry symbol');
  await page.addInitScript({ content: source.replaceAll(registry, "Symbol.for('latch.secondTestWallet')") });
  return wallet;
}

/**
 * A JSON-RPC request to the test wallet from the page's own JavaScript, as a dapp makes it: through the wallet's
 * EIP-6963 announcement (it sets no window.ethereum).
 * @param {import('playwright-core').Page} page
 * @param {{method: string, params?: unknown[]}} args
 */
export function walletRequest(page, args) {
  return page.evaluate(async (request) => {
    const provider = await new Promise((resolve) => {
      const onAnnounce = (/** @type {any} */ event) => {
        if (event.detail.info.rdns !== 'dev.latch.testwallet') return;
        window.removeEventListener('eip6963:announceProvider', onAnnounce);
        resolve(event.detail.provider);
      };
      window.addEventListener('eip6963:announceProvider', onAnnounce);
      window.dispatchEvent(new Event('eip6963:requestProvider'));
    });
    return /** @type {any} */ (provider).request(request);
  }, args);
}

/** The control API of an installed wallet. */
export class TestWallet {
  /**
   * @param {import('playwright-core').Page | import('playwright-core').BrowserContext} target
   * @param {InstallOptions} options
   */
  constructor(target, options) {
    this.target = target;
    this.options = options;
    /** @type {string[]} every method the page requested, in order */
    this.calls = [];
    /** @type {Prompt[]} every time the user was asked (connect, sign, send, switch, add chain) */
    this.prompts = [];
    /** @type {Map<number, Chain>} */
    this.chains = new Map(
      options.info.networks.map((n) => [n.chainId, { id: n.chainId, name: n.name, rpcUrl: n.rpcUrl }]),
    );
    /** @type {{method?: string, decide: (prompt: Prompt) => Promise<{code: number, message: string} | null>}[]} */
    this.decisions = [];
    this.#useAccount(options.accountIndex ?? 0);
  }

  /** @param {number} index */
  #useAccount(index) {
    this.accountIndex = index;
    /** @type {import('viem').LocalAccount} */
    this.account = this.options.privateKey
      ? privateKeyToAccount(this.options.privateKey)
      : mnemonicToAccount(this.options.mnemonic ?? this.options.info.mnemonic, { addressIndex: index });
  }

  /** The address the wallet answers with. */
  get address() {
    return this.account.address;
  }

  /**
   * The next prompt (of `method`, or any prompting method) is rejected by the user: 4001.
   * @param {string} [method]
   */
  rejectNext(method) {
    this.decisions.push({ method, decide: async () => errors.userRejected });
  }

  /**
   * The next prompt waits until the test answers it, e.g. to check a "confirm in your wallet" screen.
   * @param {string} [method]
   * @returns {HeldPrompt}
   */
  holdNext(method) {
    let opened;
    let answer;
    const prompted = new Promise((resolve) => { opened = resolve; });
    const answered = new Promise((resolve) => { answer = resolve; });
    this.decisions.push({
      method,
      decide: (prompt) => {
        opened(prompt);
        return answered;
      },
    });
    return {
      prompted,
      approve: () => answer(null),
      reject: (error = errors.userRejected) => answer(error),
    };
  }

  /**
   * Switches the wallet to mnemonic account `index`; connected pages get accountsChanged.
   * @param {number} index
   */
  async setAccount(index) {
    this.#useAccount(index);
    await this.#applyInPages({ emitIfApproved: [['accountsChanged', [this.address]]] });
  }

  /**
   * Emits a provider event in every page, e.g. emit('disconnect', {code: 4900, message: '…'}).
   * @param {string} event
   * @param {unknown} payload
   */
  async emit(event, payload) {
    await this.#applyInPages({ emit: [[event, payload]] });
  }

  /** @param {object} effects */
  async #applyInPages(effects) {
    const pages = 'pages' in this.target ? this.target.pages() : [this.target];
    const frames = pages.flatMap((page) => (this.options.allFrames ? page.frames() : [page.mainFrame()]));
    await Promise.all(
      frames.map((frame) =>
        frame
          .evaluate((fx) => window[Symbol.for('latch.testWallet')]?.apply(fx), effects)
          .catch(() => {}), // a frame that navigated away has nothing to update
      ),
    );
  }

  /**
   * The binding's entry point: one request from the page.
   * @param {{frame: import('playwright-core').Frame}} source
   * @param {{method: string, params: any, state: {approved: boolean, chainId: string}}} message
   */
  async handle(source, message) {
    this.calls.push(message.method);
    let origin = '';
    try {
      origin = new URL(source.frame.url()).origin;
    } catch {
      // about:blank
    }
    const effects = { state: {}, emit: [] };
    try {
      const result = await this.#dispatch(message, origin, effects);
      return { result: result ?? null, effects };
    } catch (err) {
      if (err instanceof WalletError) return { error: err.rpc, effects };
      return { error: rpcErrorOf(err), effects };
    }
  }

  /**
   * @param {{method: string, params: any, state: {approved: boolean, chainId: string}}} message
   * @param {string} origin
   * @param {{state: Record<string, unknown>, emit: [string, unknown][]}} effects
   */
  async #dispatch({ method, params, state }, origin, effects) {
    const chainId = Number(state.chainId);
    const accounts = state.approved ? [this.address] : [];
    const p = Array.isArray(params) ? params : [params];

    if (forwardedMethods.has(method)) return this.#forward(chainId, method, params);

    switch (method) {
      case 'eth_chainId':
        return state.chainId;
      case 'net_version':
        return String(chainId);
      case 'eth_accounts':
        return accounts;

      case 'eth_requestAccounts':
        if (state.approved) return accounts; // a site already approved is not asked again
        await this.#ask(method, params, origin);
        effects.state.approved = true;
        effects.emit.push(['accountsChanged', [this.address]]);
        return [this.address];

      case 'wallet_getPermissions':
        return state.approved ? [this.#permission(origin)] : [];

      case 'wallet_requestPermissions': {
        const requested = Object.keys(p[0] ?? {});
        if (requested.length !== 1 || requested[0] !== 'eth_accounts') {
          throw new WalletError(errors.invalidParams('Latch Test Wallet grants only the eth_accounts permission.'));
        }
        await this.#ask(method, params, origin);
        if (!state.approved) effects.emit.push(['accountsChanged', [this.address]]);
        effects.state.approved = true;
        return [this.#permission(origin)];
      }

      case 'wallet_revokePermissions':
        if (state.approved) effects.emit.push(['accountsChanged', []]);
        effects.state.approved = false;
        return null;

      case 'personal_sign': {
        this.#requireApproval(state);
        let [data, address] = p;
        // some dapps send [address, message]; MetaMask accepts both orders
        if (isHex(data) && data.length === 42 && isAddressEqual(data, this.address) && !(isHex(address) && address.length === 42)) {
          [data, address] = [address, data];
        }
        this.#requireOwnAddress(address);
        await this.#ask(method, params, origin);
        return this.account.signMessage({ message: isHex(data) ? { raw: data } : String(data) });
      }

      case 'eth_signTypedData_v4': {
        this.#requireApproval(state);
        const [address, raw] = p;
        this.#requireOwnAddress(address);
        const typed = typeof raw === 'string' ? JSON.parse(raw) : raw;
        const domainChain = typed?.domain?.chainId;
        if (domainChain !== undefined && Number(domainChain) !== chainId) {
          throw new WalletError(
            errors.invalidParams(`Provided chainId "${Number(domainChain)}" must match the active chainId "${chainId}"`),
          );
        }
        await this.#ask(method, params, origin);
        return this.account.signTypedData({
          domain: typed.domain,
          types: typed.types,
          primaryType: typed.primaryType,
          message: typed.message,
        });
      }

      case 'eth_sendTransaction': {
        this.#requireApproval(state);
        const tx = p[0] ?? {};
        this.#requireOwnAddress(tx.from);
        if (tx.chainId !== undefined && Number(tx.chainId) !== chainId) {
          throw new WalletError(errors.invalidParams(`chainId ${Number(tx.chainId)} is not the active chain ${chainId}`));
        }
        await this.#ask(method, params, origin);
        return this.#send(chainId, tx);
      }

      case 'wallet_switchEthereumChain': {
        const target = Number(p[0]?.chainId);
        if (!Number.isSafeInteger(target) || target <= 0) {
          throw new WalletError(errors.invalidParams('Expected a chainId as a 0x-prefixed hex string.'));
        }
        if (!this.chains.has(target)) throw new WalletError(errors.unknownChain(numberToHex(target)));
        if (target === chainId) return null;
        await this.#ask(method, params, origin);
        this.#switchTo(target, effects);
        return null;
      }

      case 'wallet_addEthereumChain': {
        const spec = p[0] ?? {};
        const id = Number(spec.chainId);
        if (!Number.isSafeInteger(id) || id <= 0 || !Array.isArray(spec.rpcUrls) || spec.rpcUrls.length === 0) {
          throw new WalletError(errors.invalidParams('Expected {chainId, chainName, rpcUrls, nativeCurrency}.'));
        }
        await this.#ask(method, params, origin);
        if (!this.chains.has(id)) {
          this.chains.set(id, { id, name: String(spec.chainName ?? `Chain ${id}`), rpcUrl: String(spec.rpcUrls[0]) });
        }
        // like MetaMask, adding a chain also switches to it
        if (id !== chainId) this.#switchTo(id, effects);
        return null;
      }

      default:
        throw new WalletError(errors.unsupported);
    }
  }

  /** @param {number} id @param {{state: Record<string, unknown>, emit: [string, unknown][]}} effects */
  #switchTo(id, effects) {
    const hex = numberToHex(id);
    effects.state.chainId = hex;
    effects.emit.push(['chainChanged', hex]);
  }

  /** @param {string} origin */
  #permission(origin) {
    return {
      invoker: origin,
      parentCapability: 'eth_accounts',
      caveats: [{ type: 'restrictReturnedAccounts', value: [this.address] }],
    };
  }

  /** @param {{approved: boolean}} state */
  #requireApproval(state) {
    if (!state.approved) throw new WalletError(errors.unauthorized);
  }

  /** @param {unknown} address */
  #requireOwnAddress(address) {
    if (typeof address !== 'string' || !isHex(address) || address.length !== 42 || !isAddressEqual(address, this.address)) {
      throw new WalletError(errors.unauthorized);
    }
  }

  /**
   * Plays the user: approves unless a rejectNext/holdNext decision matches this method.
   * @param {string} method @param {unknown} params @param {string} origin
   */
  async #ask(method, params, origin) {
    if (!promptingMethods.has(method)) throw new Error(`${method} is not a prompting method`);
    /** @type {Prompt} */
    const prompt = { method, params, origin };
    this.prompts.push(prompt);
    const index = this.decisions.findIndex((d) => d.method === undefined || d.method === method);
    const rejection = index === -1 ? null : await this.decisions.splice(index, 1)[0].decide(prompt);
    prompt.decision = rejection ? 'rejected' : 'approved';
    if (rejection) throw new WalletError(rejection);
  }

  /** @param {number} chainId */
  #chain(chainId) {
    const chain = this.chains.get(chainId);
    if (!chain) throw new WalletError({ code: 4901, message: `The wallet is not connected to chain ${chainId}.` });
    const host = new URL(chain.rpcUrl).hostname;
    // the harness promises no host but this machine is contacted, from the page or from the wallet
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
      throw new WalletError(errors.internal(`Latch Test Wallet reaches only loopback RPC URLs, not ${chain.rpcUrl}`));
    }
    return chain;
  }

  /** @param {number} chainId @param {string} method @param {unknown} params */
  async #forward(chainId, method, params) {
    const { rpcUrl } = this.#chain(chainId);
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
    });
    if (!res.ok) throw new WalletError(errors.internal(`RPC ${method} answered HTTP ${res.status}`));
    const body = await res.json();
    if (body.error) throw new WalletError(body.error);
    return body.result;
  }

  /** @param {number} chainId @param {Record<string, string | undefined>} tx */
  async #send(chainId, tx) {
    const { id, name, rpcUrl } = this.#chain(chainId);
    const chain = defineChain({
      id,
      name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const client = createWalletClient({ account: this.account, chain, transport: http(rpcUrl) });
    const big = (v) => (v === undefined || v === null ? undefined : BigInt(v));
    // fields arrive as the page sent them; viem checks them, the node answers what it thinks of them
    return client.sendTransaction(/** @type {any} */ ({
      to: tx.to ?? undefined,
      value: big(tx.value),
      data: tx.data ?? tx.input,
      gas: big(tx.gas ?? tx.gasLimit),
      nonce: tx.nonce === undefined ? undefined : Number(tx.nonce),
      ...(tx.gasPrice !== undefined
        ? { gasPrice: big(tx.gasPrice) }
        : { maxFeePerGas: big(tx.maxFeePerGas), maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas) }),
    }));
  }
}

/**
 * A viem or RPC failure as the JSON-RPC error a wallet would answer (code and message of the innermost cause).
 * @param {any} err
 */
function rpcErrorOf(err) {
  let cause = err;
  while (cause) {
    if (typeof cause.code === 'number' && typeof cause.message === 'string') {
      return { code: cause.code, message: cause.details ?? cause.shortMessage ?? cause.message, ...(cause.data !== undefined && { data: cause.data }) };
    }
    cause = cause.cause;
  }
  return errors.internal(err?.shortMessage ?? err?.message ?? String(err));
}
