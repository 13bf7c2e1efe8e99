// Latch Test Wallet: a scripted EIP-6963 / EIP-1193 provider for browser tests.
//
// Injected with page.addInitScript, so it runs before any page script and may import nothing. It keeps only
// what a real extension keeps per site (whether the site was approved, which chain it is on) in the page's
// localStorage, and emits the provider events. Every request goes to Node through a Playwright binding
// (wallet/wallet.mjs), which holds the keys, plays the user (approve / reject), signs, sends and forwards reads
// to the dev chains. Node answers {result} or {error}, plus effects: state changes and events to emit.
(function latchTestWallet(config) {
  'use strict';
  if (!config) throw new Error('Latch Test Wallet: injected without its config');
  if (!config.allFrames && window.top !== window) return;
  const registryKey = Symbol.for('latch.testWallet');
  if (window[registryKey]) return; // injected twice (context and page): the first one wins

  // --- per-site state, persisted like an extension's site permissions ---------------------------------------
  const defaults = { approved: false, chainId: config.chainId };
  function loadState() {
    try {
      const raw = window.localStorage.getItem(config.storageKey);
      if (raw) return Object.assign({}, defaults, JSON.parse(raw));
    } catch (_) {
      // opaque origins (about:blank, data:) have no localStorage: keep the state in memory
    }
    return Object.assign({}, defaults);
  }
  const state = loadState();
  function saveState() {
    try {
      window.localStorage.setItem(config.storageKey, JSON.stringify(state));
    } catch (_) {
      // see loadState
    }
  }

  // --- events ----------------------------------------------------------------------------------------------
  const listeners = new Map();
  function emit(event, payload) {
    const set = listeners.get(event);
    if (!set) return;
    for (const listener of Array.from(set)) {
      try {
        listener(payload);
      } catch (err) {
        // a throwing listener must not stop the others; report it as the page's own uncaught error
        setTimeout(() => { throw err; });
      }
    }
  }

  function providerError(code, message, data) {
    const err = new Error(message);
    err.name = 'ProviderRpcError';
    err.code = code;
    if (data !== undefined) err.data = data;
    return err;
  }

  /** Applies what Node decided: state first (so listeners read the new state), then the events. */
  function applyEffects(effects) {
    if (!effects) return;
    if (effects.state) {
      Object.assign(state, effects.state);
      saveState();
    }
    if (effects.emitIfApproved && state.approved) {
      for (const [event, payload] of effects.emitIfApproved) emit(event, payload);
    }
    if (effects.emit) {
      for (const [event, payload] of effects.emit) emit(event, payload);
    }
  }

  // --- EIP-1193 provider -----------------------------------------------------------------------------------
  const provider = {
    isLatchTestWallet: true,

    async request(args) {
      if (!args || typeof args !== 'object' || Array.isArray(args)) {
        throw providerError(-32600, 'Expected a single, non-array, object argument.');
      }
      const method = args.method;
      const params = args.params;
      if (typeof method !== 'string' || method.length === 0) {
        throw providerError(-32600, "'args.method' must be a non-empty string.");
      }
      if (params !== undefined && (params === null || typeof params !== 'object')) {
        throw providerError(-32600, "'args.params' must be an object or array if provided.");
      }
      const bridge = window[config.bindingName];
      if (typeof bridge !== 'function') {
        throw providerError(4900, 'Latch Test Wallet: the Node side of the wallet is not attached to this page.');
      }
      const reply = await bridge({
        method: method,
        params: params === undefined ? [] : params,
        state: { approved: state.approved, chainId: state.chainId },
      });
      applyEffects(reply.effects);
      if (reply.error) throw providerError(reply.error.code, reply.error.message, reply.error.data);
      return reply.result === undefined ? null : reply.result;
    },

    on(event, listener) {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
      return provider;
    },

    once(event, listener) {
      const wrapped = (payload) => {
        provider.removeListener(event, wrapped);
        listener(payload);
      };
      return provider.on(event, wrapped);
    },

    removeListener(event, listener) {
      const set = listeners.get(event);
      if (set) set.delete(listener);
      return provider;
    },

    removeAllListeners(event) {
      if (event === undefined) listeners.clear();
      else listeners.delete(event);
      return provider;
    },

    listenerCount(event) {
      const set = listeners.get(event);
      return set ? set.size : 0;
    },

    /** Legacy, still read by some libraries. */
    isConnected() {
      return true;
    },
  };
  provider.addListener = provider.on;
  provider.off = provider.removeListener;

  // --- EIP-6963 announcement ---------------------------------------------------------------------------------
  function uuidV4() {
    // crypto.randomUUID needs a secure context; getRandomValues does not
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }
  const info = Object.freeze({ uuid: uuidV4(), name: config.name, icon: config.icon, rdns: config.rdns });
  const detail = Object.freeze({ info: info, provider: provider });
  function announce() {
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: detail }));
  }
  window.addEventListener('eip6963:requestProvider', announce);
  announce();

  if (config.windowEthereum && !window.ethereum) {
    Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, writable: false });
  }

  // EIP-1193: "connect" once the provider can serve RPC requests to the chain. A real extension gets there
  // after a round trip to its background page, i.e. after the page's own (and module) scripts subscribed;
  // DOMContentLoaded is the deterministic equivalent.
  const emitConnect = () => emit('connect', { chainId: state.chainId });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', emitConnect, { once: true });
  else setTimeout(emitConnect, 0);

  // Hook for the Node side (wallet.setAccount, wallet.emit); a symbol so it never collides with page globals.
  Object.defineProperty(window, registryKey, {
    value: Object.freeze({
      provider: provider,
      info: info,
      apply: applyEffects,
      state: () => Object.assign({}, state),
    }),
  });
})(/* @latch-test-wallet-config */ null);
