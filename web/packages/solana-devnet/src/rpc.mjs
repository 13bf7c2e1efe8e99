// The Solana JSON-RPC methods of the dev network, answered from the ledger in
// the shapes of Solana's own RPC (https://solana.com/docs/rpc). Every state is
// final as soon as it is answered: there is one validator and no forks, so
// every commitment level sees the same slot.
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder } from '@solana/kit';
import { parseMint, parseTokenAccount, RpcError, uiTokenAmount, LAMPORTS_PER_SOL, TOKEN_PROGRAM, TOKEN_2022_PROGRAM } from './ledger.mjs';

const b58enc = getBase58Encoder();
const b64enc = getBase64Encoder();
const b64dec = getBase64Decoder();
const b58decoder = getBase58Decoder();
const b58dec = (b) => b58decoder.decode(b);

/** Largest single requestAirdrop, as a public test validator's faucet bounds it. */
export const MAX_AIRDROP_LAMPORTS = 1000n * LAMPORTS_PER_SOL;
/** How many signatures getSignaturesForAddress answers at most (Solana's limit). */
const MAX_SIGNATURES = 1000;
const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max']);

const invalidParams = (msg) => new RpcError(-32602, msg);

function addressParam(v, what = 'address') {
  if (typeof v !== 'string' || v.length < 32 || v.length > 44) throw invalidParams(`Invalid param: ${what} must be a base58 address of 32 to 44 characters`);
  let bytes;
  try {
    bytes = b58enc.encode(v);
  } catch {
    throw invalidParams(`Invalid param: ${what} ${v} is not base58`);
  }
  if (bytes.length !== 32) throw invalidParams(`Invalid param: WrongSize (${what} ${v} is not 32 bytes)`);
  return v;
}

function config(v) {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('Invalid params: the configuration must be an object');
  if (v.commitment !== undefined && !COMMITMENTS.has(v.commitment)) throw invalidParams(`Invalid params: unknown commitment ${v.commitment}`);
  return v;
}

/** minContextSlot: refuse a request for a slot the network has not reached (Solana's -32016). */
function checkMinContextSlot(ledger, cfg) {
  if (cfg.minContextSlot !== undefined && BigInt(cfg.minContextSlot) > ledger.slot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: Number(ledger.slot) });
  }
}

function context(ledger) {
  return { slot: Number(ledger.slot), apiVersion: '2.2.0' };
}

function wireParam(v, encoding) {
  if (typeof v !== 'string' || v === '') throw invalidParams('Invalid params: the transaction must be an encoded string');
  const enc = encoding ?? 'base58';
  try {
    if (enc === 'base64') return b64enc.encode(v);
    if (enc === 'base58') return b58enc.encode(v);
  } catch {
    throw invalidParams(`invalid transaction: the transaction is not valid ${enc}`);
  }
  throw invalidParams(`Invalid params: unsupported encoding ${enc}; use base58 or base64`);
}

/** encodeAccount renders an account in the requested encoding (base64 by default; jsonParsed for SPL token accounts and mints). */
function encodeAccount(ledger, acc, cfg) {
  if (!acc || acc.exists === false) return null;
  const out = {
    lamports: Number(acc.lamports),
    owner: acc.programAddress,
    executable: acc.executable,
    rentEpoch: 18446744073709551615,
    space: acc.data.length,
  };
  const encoding = cfg.encoding ?? 'base64';
  if (encoding === 'jsonParsed') {
    const parsed = parseAccount(ledger, acc);
    if (parsed) return { ...out, data: parsed };
  }
  let data = acc.data;
  if (cfg.dataSlice) data = data.subarray(cfg.dataSlice.offset ?? 0, (cfg.dataSlice.offset ?? 0) + (cfg.dataSlice.length ?? data.length));
  switch (encoding) {
    case 'base58':
      return { ...out, data: [getBase58(data), 'base58'] };
    case 'base64':
    case 'jsonParsed':
      return { ...out, data: [b64dec.decode(data), 'base64'] };
    default:
      throw invalidParams(`Invalid params: unsupported encoding ${encoding}`);
  }
}

function getBase58(bytes) {
  // Solana's RPC refuses base58 for data over 128 bytes; so do we.
  if (bytes.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
  return b58dec(bytes);
}

function parseAccount(ledger, acc) {
  const program = acc.programAddress === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  const t = parseTokenAccount(acc);
  if (t) {
    const mint = parseMint(ledger.account(t.mint));
    return {
      program,
      parsed: { type: 'account', info: { isNative: false, mint: t.mint, owner: t.owner, state: 'initialized', tokenAmount: uiTokenAmount(t.amount, mint ? mint.decimals : 0) } },
      space: acc.data.length,
    };
  }
  const m = acc.data.length === 82 ? parseMint(acc) : null;
  if (m) {
    return {
      program,
      parsed: { type: 'mint', info: { decimals: m.decimals, freezeAuthority: m.freezeAuthority, isInitialized: true, mintAuthority: m.mintAuthority, supply: m.supply.toString() } },
      space: acc.data.length,
    };
  }
  return null;
}

/** transactionJSON renders a record for getTransaction. */
function transactionJSON(record, cfg) {
  const encoding = cfg.encoding ?? 'json';
  if (record.version !== 'legacy' && cfg.maxSupportedTransactionVersion === undefined) {
    throw new RpcError(-32015, `Transaction version (${record.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`);
  }
  let transaction;
  if (record.airdrop) {
    transaction = airdropJSON(record);
    if (encoding === 'base64' || encoding === 'base58') transaction = null; // LiteSVM's faucet transaction is not kept as bytes
  } else if (encoding === 'base64') {
    transaction = [record.wire, 'base64'];
  } else if (encoding === 'base58') {
    transaction = [b58dec(b64enc.encode(record.wire)), 'base58'];
  } else if (encoding === 'json' || encoding === 'jsonParsed') {
    transaction = record.message;
  } else {
    throw invalidParams(`Invalid params: unsupported encoding ${encoding}`);
  }
  const meta = {
    ...record.meta,
    status: record.meta.err ? { Err: record.meta.err } : { Ok: null },
    innerInstructions: [],
    loadedAddresses: { writable: [], readonly: [] },
    rewards: [],
  };
  const out = { slot: record.slot, blockTime: record.blockTime, meta, transaction };
  if (cfg.maxSupportedTransactionVersion !== undefined) out.version = record.version;
  return out;
}

function airdropJSON(record) {
  return {
    signatures: [record.signature],
    message: {
      accountKeys: [record.addresses[0], '11111111111111111111111111111111'],
      header: { numRequiredSignatures: 0, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
      recentBlockhash: '11111111111111111111111111111111',
      instructions: [],
    },
  };
}

function statusJSON(record) {
  return { slot: record.slot, confirmations: null, err: record.meta.err, status: record.meta.err ? { Err: record.meta.err } : { Ok: null }, confirmationStatus: 'finalized' };
}

/** methods maps each JSON-RPC method to its handler (ledger, params) → result. */
export const methods = {
  getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
  getHealth: () => 'ok',
  getGenesisHash: (l) => l.genesisHash,
  getIdentity: (l) => ({ identity: l.usdcAuthority.address }),
  getSlot: (l, [cfg]) => {
    const c = config(cfg);
    checkMinContextSlot(l, c);
    return Number(l.slot);
  },
  getBlockHeight: (l, [cfg]) => {
    checkMinContextSlot(l, config(cfg));
    return Number(l.slot);
  },
  getEpochInfo: (l) => ({ absoluteSlot: Number(l.slot), blockHeight: Number(l.slot), epoch: 0, slotIndex: Number(l.slot), slotsInEpoch: 432000, transactionCount: l.order.length }),
  getLatestBlockhash: (l, [cfg]) => {
    checkMinContextSlot(l, config(cfg));
    return { context: context(l), value: { blockhash: l.svm.latestBlockhash(), lastValidBlockHeight: Number(l.slot) + 150 } };
  },
  isBlockhashValid: (l, [hash, cfg]) => {
    checkMinContextSlot(l, config(cfg));
    return { context: context(l), value: hash === l.svm.latestBlockhash() };
  },
  getFeeForMessage: (l, [msg]) => {
    const bytes = wireParam(msg, 'base64');
    // numRequiredSignatures is the first byte of a legacy message and the second of a versioned one.
    const n = bytes[0] & 0x80 ? bytes[1] : bytes[0];
    return { context: context(l), value: n * 5000 };
  },
  getMinimumBalanceForRentExemption: (l, [size]) => {
    if (!Number.isInteger(size) || size < 0 || size > 10 * 1024 * 1024) throw invalidParams('Invalid params: the data size must be a whole number of bytes up to 10 MiB');
    return Number(l.svm.minimumBalanceForRentExemption(BigInt(size)));
  },
  getBalance: (l, [addr, cfg]) => {
    addressParam(addr);
    checkMinContextSlot(l, config(cfg));
    return { context: context(l), value: Number(l.svm.getBalance(addr) ?? 0n) };
  },
  getAccountInfo: (l, [addr, cfg]) => {
    addressParam(addr);
    const c = config(cfg);
    checkMinContextSlot(l, c);
    return { context: context(l), value: encodeAccount(l, l.account(addr), c) };
  },
  getMultipleAccounts: (l, [addrs, cfg]) => {
    if (!Array.isArray(addrs)) throw invalidParams('Invalid params: expected an array of addresses');
    if (addrs.length > 100) throw invalidParams('Too many inputs provided; max 100');
    addrs.forEach((a) => addressParam(a));
    const c = config(cfg);
    checkMinContextSlot(l, c);
    return { context: context(l), value: addrs.map((a) => encodeAccount(l, l.account(a), c)) };
  },
  getTokenAccountsByOwner: (l, [owner, filter, cfg]) => {
    addressParam(owner, 'owner');
    if (!filter || typeof filter !== 'object' || (filter.mint === undefined) === (filter.programId === undefined)) {
      throw invalidParams('Invalid params: the filter must name one of mint or programId');
    }
    if (filter.mint !== undefined) addressParam(filter.mint, 'mint');
    if (filter.programId !== undefined && filter.programId !== TOKEN_PROGRAM && filter.programId !== TOKEN_2022_PROGRAM) {
      throw invalidParams('Invalid params: unrecognized Token program id');
    }
    const c = config(cfg);
    checkMinContextSlot(l, c);
    return { context: context(l), value: l.tokenAccountsByOwner(owner, filter).map((acc) => ({ pubkey: acc.address, account: encodeAccount(l, acc, c) })) };
  },
  getTokenAccountBalance: (l, [addr, cfg]) => {
    addressParam(addr);
    checkMinContextSlot(l, config(cfg));
    const t = parseTokenAccount(l.account(addr));
    if (!t) throw invalidParams('Invalid param: not a Token account');
    const mint = parseMint(l.account(t.mint));
    return { context: context(l), value: uiTokenAmount(t.amount, mint ? mint.decimals : 0) };
  },
  getTokenSupply: (l, [addr]) => {
    addressParam(addr);
    const m = parseMint(l.account(addr));
    if (!m) throw invalidParams('Invalid param: not a Token mint');
    return { context: context(l), value: uiTokenAmount(m.supply, m.decimals) };
  },
  getSignatureStatuses: (l, [sigs]) => {
    if (!Array.isArray(sigs)) throw invalidParams('Invalid params: expected an array of signatures');
    if (sigs.length > 256) throw invalidParams('Too many inputs provided; max 256');
    return { context: context(l), value: sigs.map((s) => (l.records.has(s) ? statusJSON(l.records.get(s)) : null)) };
  },
  getTransaction: (l, [sig, cfg]) => {
    if (typeof sig !== 'string') throw invalidParams('Invalid param: the signature must be a base58 string');
    const c = typeof cfg === 'string' ? { encoding: cfg } : config(cfg);
    const record = l.records.get(sig);
    return record ? transactionJSON(record, c) : null;
  },
  getSignaturesForAddress: (l, [addr, cfg]) => {
    addressParam(addr);
    const c = config(cfg);
    checkMinContextSlot(l, c);
    const limit = c.limit ?? MAX_SIGNATURES;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES}`);
    // before and until name any known transaction, not only one of this
    // address: the list is cut at its place in the ledger (as a validator
    // cuts at its slot), so one cursor pages several addresses' lists.
    const position = (sig) => (l.records.has(sig) ? l.records.get(sig).position : -1);
    let sigs = l.signaturesFor(addr);
    if (c.before) {
      const p = position(c.before);
      sigs = p < 0 ? [] : sigs.filter((sig) => position(sig) < p);
    }
    if (c.until) {
      const p = position(c.until);
      if (p >= 0) sigs = sigs.filter((sig) => position(sig) > p);
    }
    return sigs.slice(0, limit).map((s) => {
      const r = l.records.get(s);
      return { signature: s, slot: r.slot, err: r.meta.err, memo: null, blockTime: r.blockTime, confirmationStatus: 'finalized' };
    });
  },
  simulateTransaction: (l, [tx, cfg]) => {
    const c = config(cfg);
    checkMinContextSlot(l, c);
    const wire = wireParam(tx, c.encoding);
    const r = l.simulate(wire, c);
    return { context: context(l), value: { err: r.err, logs: r.logs, accounts: null, unitsConsumed: r.unitsConsumed, returnData: null } };
  },
  sendTransaction: (l, [tx, cfg]) => {
    const c = config(cfg);
    if (c.preflightCommitment !== undefined && !COMMITMENTS.has(c.preflightCommitment)) throw invalidParams(`Invalid params: unknown preflightCommitment ${c.preflightCommitment}`);
    if (c.maxRetries !== undefined && (!Number.isInteger(c.maxRetries) || c.maxRetries < 0)) throw invalidParams('Invalid params: maxRetries must be a whole number');
    checkMinContextSlot(l, c);
    const wire = wireParam(tx, c.encoding);
    // Preflight is the simulation of the transaction against the current
    // state; with skipPreflight a failing transaction lands and is recorded
    // failed (its fee paid), as on a real cluster.
    return l.execute(wire, { recordFailure: c.skipPreflight === true }).signature;
  },
  requestAirdrop: (l, [addr, amount, cfg]) => {
    addressParam(addr);
    config(cfg);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidParams('Invalid params: the lamports must be a positive whole number');
    if (BigInt(amount) > MAX_AIRDROP_LAMPORTS) throw invalidParams(`Invalid params: an airdrop is at most ${MAX_AIRDROP_LAMPORTS / LAMPORTS_PER_SOL} SOL`);
    return l.airdrop(addr, BigInt(amount)).signature;
  },
};

/** handle answers one JSON-RPC request object. */
export function handle(ledger, req) {
  const id = req && typeof req === 'object' && 'id' in req ? req.id : null;
  if (!req || typeof req !== 'object' || Array.isArray(req) || req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
  }
  const fn = Object.hasOwn(methods, req.method) ? methods[req.method] : null;
  if (!fn) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  const params = req.params === undefined ? [] : req.params;
  if (!Array.isArray(params)) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: expected an array' } };
  try {
    return { jsonrpc: '2.0', id, result: fn(ledger, params) };
  } catch (e) {
    if (e instanceof RpcError) {
      const error = { code: e.code, message: e.message };
      if (e.data !== undefined) error.data = e.data;
      return { jsonrpc: '2.0', id, error };
    }
    return { jsonrpc: '2.0', id, error: { code: -32603, message: `Internal error: ${e && e.message ? e.message : String(e)}` } };
  }
}
