// The ledger: a LiteSVM holding the accounts, our record of every transaction
// it executed (what getTransaction, getSignatureStatuses and
// getSignaturesForAddress answer from), a slot that advances by one per
// transaction, and a journal that makes it all survive a restart.
//
// LiteSVM keeps no block history a restarted process could reload, so the
// journal (one JSON line per executed transaction or airdrop) is replayed
// into a fresh LiteSVM at start with its blockhash check off (the recorded
// transactions name blockhashes of the earlier process), and the records are
// taken from the journal as they were first answered.
import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2';
import {
  getAddressDecoder,
  getAddressEncoder,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getProgramDerivedAddress,
  getTransactionDecoder,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { devAccounts, labelKeyPair } from './keys.mjs';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

/** Lamports per signature, LiteSVM's default fee rate (as on mainnet). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
export const LAMPORTS_PER_SOL = 1_000_000_000n;

/** The dev network's genesis: what every start begins from. */
export const GENESIS = {
  label: 'latch solana devnet v1',
  solPerAccount: 1000n,
  usdc: { label: 'latch solana devnet USDC mint v1', authorityLabel: 'latch solana devnet USDC mint authority v1', decimals: 6, perAccount: 10_000n },
};

const b58 = getBase58Decoder();
const addrEnc = getAddressEncoder();
const addrDec = getAddressDecoder();
const b64dec = getBase64Decoder();
const b64enc = getBase64Encoder();
const txDecoder = getTransactionDecoder();
const msgDecoder = getCompiledTransactionMessageDecoder();

/** genesisHash: base58 of sha256 of the genesis label; the CAIP-2 reference is its first 32 characters. */
export function genesisHash() {
  return b58.decode(sha256(new TextEncoder().encode(GENESIS.label)));
}

/** associatedTokenAddress derives the associated token account of owner for mint (classic token program). */
export async function associatedTokenAddress(owner, mint) {
  const [pda] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [addrEnc.encode(owner), addrEnc.encode(TOKEN_PROGRAM), addrEnc.encode(mint)],
  });
  return pda;
}

function u64le(v) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
}

/** mintData is the 82-byte SPL Mint layout. */
function mintData(authority, supply, decimals) {
  const d = new Uint8Array(82);
  const v = new DataView(d.buffer);
  v.setUint32(0, 1, true); // mint authority: Some
  d.set(addrEnc.encode(authority), 4);
  d.set(u64le(supply), 36);
  d[44] = decimals;
  d[45] = 1; // initialized
  // freeze authority: None (zeros)
  return d;
}

/** tokenAccountData is the 165-byte SPL token Account layout. */
function tokenAccountData(mint, owner, amount) {
  const d = new Uint8Array(165);
  d.set(addrEnc.encode(mint), 0);
  d.set(addrEnc.encode(owner), 32);
  d.set(u64le(amount), 64);
  d[108] = 1; // state: initialized
  return d;
}

/** parseTokenAccount reads mint, owner and amount of an SPL token account, or null. */
export function parseTokenAccount(acc) {
  if (!acc || acc.exists === false || acc.data.length < 165) return null;
  if (acc.programAddress !== TOKEN_PROGRAM && acc.programAddress !== TOKEN_2022_PROGRAM) return null;
  if (acc.data[108] === 0) return null; // uninitialized
  const v = new DataView(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength);
  return {
    mint: addrDec.decode(acc.data.subarray(0, 32)),
    owner: addrDec.decode(acc.data.subarray(32, 64)),
    amount: v.getBigUint64(64, true),
    programId: acc.programAddress,
  };
}

/** parseMint reads supply, decimals and the mint authority of an SPL mint, or null. */
export function parseMint(acc) {
  if (!acc || acc.exists === false || acc.data.length < 82) return null;
  if (acc.programAddress !== TOKEN_PROGRAM && acc.programAddress !== TOKEN_2022_PROGRAM) return null;
  if (acc.data[45] !== 1) return null;
  const v = new DataView(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength);
  const hasAuthority = v.getUint32(0, true) === 1;
  const hasFreeze = v.getUint32(46, true) === 1;
  return {
    mintAuthority: hasAuthority ? addrDec.decode(acc.data.subarray(4, 36)) : null,
    supply: v.getBigUint64(36, true),
    decimals: acc.data[44],
    freezeAuthority: hasFreeze ? addrDec.decode(acc.data.subarray(50, 82)) : null,
  };
}

/** uiAmount is the token amount shape of Solana's RPC. */
export function uiTokenAmount(amount, decimals) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
  const uiAmountString = frac ? `${whole}.${frac}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** A RPC-level error with a JSON-RPC code (Solana's numbering). */
export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** decodeWire decodes a wire transaction (bytes) into its message and the static account keys. */
export function decodeWire(bytes) {
  let tx;
  let msg;
  try {
    tx = txDecoder.decode(bytes);
    msg = msgDecoder.decode(tx.messageBytes);
  } catch (e) {
    throw new RpcError(-32602, `invalid transaction: failed to deserialize the transaction: ${e.message}`);
  }
  if (msg.addressTableLookups && msg.addressTableLookups.length > 0) {
    throw new RpcError(-32602, 'invalid transaction: address lookup tables are not supported by the Latch dev network');
  }
  const signatures = Object.values(tx.signatures).map((s) => (s ? b58.decode(s) : '1'.repeat(64)));
  return { tx, msg, signatures, keys: msg.staticAccounts };
}

/** fee computes what a transaction pays: 5000 lamports a signature plus its compute-unit price. */
function transactionFee(msg) {
  let price = 0n;
  let limit = null;
  let others = 0n;
  for (const ix of msg.instructions) {
    const program = msg.staticAccounts[ix.programAddressIndex];
    const data = ix.data ?? new Uint8Array();
    if (program === COMPUTE_BUDGET_PROGRAM && data.length > 0) {
      const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
      if (data[0] === 3 && data.length >= 9) price = v.getBigUint64(1, true);
      else if (data[0] === 2 && data.length >= 5) limit = BigInt(v.getUint32(1, true));
      continue;
    }
    others++;
  }
  if (limit === null) limit = 200_000n * others;
  if (limit > 1_400_000n) limit = 1_400_000n;
  const priority = (price * limit + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(msg.header.numSignerAccounts) + priority;
}

/** The ledger of the dev network. */
export class Ledger {
  /**
   * @param {{mnemonic: string, accounts: number, journal?: string, now?: () => number}} opts
   */
  constructor(opts) {
    this.opts = opts;
    this.now = opts.now ?? (() => Date.now());
    this.svm = new LiteSVM();
    this.slot = 1n;
    this.svm.warpToSlot(this.slot);
    this.records = new Map(); // signature → record
    this.order = []; // signatures in execution order
    this.byAddress = new Map(); // address → signatures, oldest first
    this.listeners = new Set(); // (event) => void for the subscriptions
    // tokenIndex: owner → the token accounts ever seen owned by it. LiteSVM's
    // getProgramAccounts scans every account (milliseconds), so token accounts
    // are found through the transactions that touch them instead.
    this.tokenIndex = new Map();
    this.accounts = devAccounts(opts.mnemonic, opts.accounts);
    this.usdcMint = labelKeyPair(GENESIS.usdc.label);
    this.usdcAuthority = labelKeyPair(GENESIS.usdc.authorityLabel);
    this.genesisHash = genesisHash();
  }

  /** start writes the genesis state and replays the journal. */
  async start() {
    const lamports = GENESIS.solPerAccount * LAMPORTS_PER_SOL;
    const unit = 10n ** BigInt(GENESIS.usdc.decimals);
    const usdcEach = GENESIS.usdc.perAccount * unit;
    const rentToken = this.svm.minimumBalanceForRentExemption(165n);
    const rentMint = this.svm.minimumBalanceForRentExemption(82n);
    for (const a of this.accounts) {
      this.svm.setAccount({ address: a.address, data: new Uint8Array(), executable: false, lamports, programAddress: SYSTEM_PROGRAM, space: 0n });
      const ata = await associatedTokenAddress(a.address, this.usdcMint.address);
      this.svm.setAccount({ address: ata, data: tokenAccountData(this.usdcMint.address, a.address, usdcEach), executable: false, lamports: rentToken, programAddress: TOKEN_PROGRAM, space: 165n });
      this.indexTokenAccounts([ata]);
    }
    const supply = usdcEach * BigInt(this.accounts.length);
    this.svm.setAccount({ address: this.usdcMint.address, data: mintData(this.usdcAuthority.address, supply, GENESIS.usdc.decimals), executable: false, lamports: rentMint, programAddress: TOKEN_PROGRAM, space: 82n });
    this.replayed = this.replay();
  }

  replay() {
    const path = this.opts.journal;
    if (!path || !existsSync(path)) return 0;
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    this.svm.withBlockhashCheck(false);
    let n = 0;
    let offset = 0; // bytes of the whole lines read so far
    for (const [i, line] of lines.entries()) {
      const start = offset;
      offset += Buffer.byteLength(line) + 1;
      if (line.trim() === '') continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        // A line cut short by a crash mid-write is the journal's last and
        // was never answered: drop it, so the next entry starts a clean line.
        if (lines.slice(i + 1).every((l) => l.trim() === '')) {
          truncateSync(path, start);
          break;
        }
        throw new Error(`journal ${path}: line ${i + 1} is not JSON`);
      }
      const slot = BigInt(entry.record.slot);
      this.svm.warpToSlot(slot);
      if (entry.kind === 'airdrop') {
        const res = this.svm.airdrop(entry.to, BigInt(entry.lamports));
        if (!res || res instanceof FailedTransactionMetadata) throw new Error(`journal ${path}: line ${i + 1}: the airdrop failed on replay`);
      } else if (!entry.record.meta.err) {
        const { tx } = decodeWire(b64enc.encode(entry.wire));
        const res = this.svm.sendTransaction(tx);
        if (res instanceof FailedTransactionMetadata) throw new Error(`journal ${path}: line ${i + 1}: transaction ${entry.record.signature} failed on replay: ${res.err()}`);
        this.indexTokenAccounts(entry.record.addresses);
      }
      this.slot = slot;
      this.remember(entry.record);
      n++;
    }
    this.svm.withBlockhashCheck(true);
    this.slot += 1n;
    this.svm.warpToSlot(this.slot);
    this.svm.expireBlockhash();
    return n;
  }

  remember(record) {
    // position: the record's place in execution order (records are not journaled with it).
    Object.defineProperty(record, 'position', { value: this.order.length, enumerable: false });
    this.records.set(record.signature, record);
    this.order.push(record.signature);
    for (const a of record.addresses) {
      let list = this.byAddress.get(a);
      if (!list) this.byAddress.set(a, (list = []));
      list.push(record.signature);
    }
  }

  journal(entry) {
    if (this.opts.journal) appendFileSync(this.opts.journal, JSON.stringify(entry) + '\n');
  }

  account(address) {
    return this.svm.getAccount(address);
  }

  tokenBalances(keys) {
    const out = [];
    keys.forEach((k, i) => {
      const t = parseTokenAccount(this.svm.getAccount(k));
      if (!t) return;
      const mint = parseMint(this.svm.getAccount(t.mint));
      const decimals = mint ? mint.decimals : 0;
      out.push({ accountIndex: i, mint: t.mint, owner: t.owner, programId: t.programId, uiTokenAmount: uiTokenAmount(t.amount, decimals) });
    });
    return out;
  }

  balances(keys) {
    return keys.map((k) => Number(this.svm.getBalance(k) ?? 0n));
  }

  /**
   * execute runs a signed wire transaction and records it. A failing one is
   * recorded only when record is true (skipPreflight: it landed and failed);
   * otherwise its failure is thrown as the preflight error.
   */
  execute(wire, { recordFailure }) {
    const { tx, msg, signatures, keys } = decodeWire(wire);
    if (this.records.has(signatures[0])) throw new RpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', { err: 'AlreadyProcessed', logs: [] });
    const pre = this.balances(keys);
    const preToken = this.tokenBalances(keys);
    const res = this.svm.sendTransaction(tx);
    const failed = res instanceof FailedTransactionMetadata;
    if (!failed) this.indexTokenAccounts(keys);
    const meta = failed ? res.meta() : res;
    if (failed && !recordFailure) {
      throw new RpcError(-32002, `Transaction simulation failed: ${errText(res.err())}`, { err: errJSON(res.err()), logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) });
    }
    const fee = transactionFee(msg);
    const record = {
      signature: signatures[0],
      slot: Number(this.slot),
      blockTime: Math.floor(this.now() / 1000),
      wire: b64dec.decode(wire),
      version: msg.version === 'legacy' ? 'legacy' : msg.version,
      addresses: keys,
      message: messageJSON(msg, signatures),
      meta: {
        err: failed ? errJSON(res.err()) : null,
        fee: Number(fee),
        preBalances: pre,
        postBalances: this.balances(keys),
        preTokenBalances: preToken,
        postTokenBalances: this.tokenBalances(keys),
        logMessages: meta.logs(),
        computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      },
    };
    this.commit({ kind: 'transaction', wire: record.wire, record });
    return record;
  }

  /** airdrop sends lamports from LiteSVM's faucet account and records it like a transfer. */
  airdrop(to, lamports) {
    const keys = [to];
    const pre = this.balances(keys);
    const res = this.svm.airdrop(to, lamports);
    if (!res || res instanceof FailedTransactionMetadata) throw new RpcError(-32603, `airdrop failed: ${res ? errText(res.err()) : 'no result'}`);
    const signature = b58.decode(res.signature());
    const record = {
      signature,
      slot: Number(this.slot),
      blockTime: Math.floor(this.now() / 1000),
      wire: null,
      version: 'legacy',
      addresses: keys,
      airdrop: { to, lamports: Number(lamports) },
      meta: { err: null, fee: 0, preBalances: pre, postBalances: this.balances(keys), preTokenBalances: [], postTokenBalances: [], logMessages: res.logs(), computeUnitsConsumed: Number(res.computeUnitsConsumed()) },
    };
    this.commit({ kind: 'airdrop', to, lamports: lamports.toString(), record });
    return record;
  }

  /** commit journals a record, then advances the slot and tells the subscribers. */
  commit(entry) {
    this.journal(entry);
    this.remember(entry.record);
    this.slot += 1n;
    this.svm.warpToSlot(this.slot);
    for (const l of this.listeners) l({ type: 'transaction', record: entry.record });
    for (const l of this.listeners) l({ type: 'slot', slot: this.slot });
  }

  simulate(wire) {
    const { tx } = decodeWire(wire);
    const res = this.svm.simulateTransaction(tx);
    if (res instanceof FailedTransactionMetadata) {
      const meta = res.meta();
      return { err: errJSON(res.err()), logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
    }
    const meta = res.meta();
    return { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
  }

  /** signaturesFor lists the records naming address, newest first. */
  signaturesFor(address) {
    return (this.byAddress.get(address) ?? []).slice().reverse();
  }

  /** indexTokenAccounts records which of keys are token accounts, under their owners. */
  indexTokenAccounts(keys) {
    for (const k of keys) {
      const t = parseTokenAccount(this.svm.getAccount(k));
      if (!t) continue;
      let set = this.tokenIndex.get(t.owner);
      if (!set) this.tokenIndex.set(t.owner, (set = new Set()));
      set.add(k);
    }
  }

  tokenAccountsByOwner(owner, filter) {
    const out = [];
    for (const address of this.tokenIndex.get(owner) ?? []) {
      const acc = this.svm.getAccount(address);
      const t = parseTokenAccount(acc);
      // The index may hold accounts since closed or handed to another owner.
      if (!t || t.owner !== owner) continue;
      if (filter.programId && t.programId !== filter.programId) continue;
      if (filter.mint && t.mint !== filter.mint) continue;
      out.push(acc);
    }
    out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    return out;
  }
}

/** messageJSON is the "json" encoding of a transaction. */
function messageJSON(msg, signatures) {
  return {
    signatures,
    message: {
      accountKeys: msg.staticAccounts,
      header: {
        numRequiredSignatures: msg.header.numSignerAccounts,
        numReadonlySignedAccounts: msg.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: msg.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: msg.lifetimeToken,
      instructions: msg.instructions.map((ix) => ({
        programIdIndex: ix.programAddressIndex,
        accounts: ix.accountIndices ?? [],
        data: b58.decode(ix.data ?? new Uint8Array()),
        stackHeight: null,
      })),
    },
  };
}

/** errJSON renders a LiteSVM transaction error in the RPC's TransactionError JSON shape. */
export function errJSON(err) {
  if (err === null || err === undefined) return null;
  if (typeof err === 'number') return transactionErrorNames[err] ?? `TransactionError${err}`;
  // InstructionError and the other errors with fields are classes with getters.
  const name = err.constructor?.name ?? '';
  if (name.includes('InstructionError') && typeof err.index === 'number') {
    const e = err.err?.();
    const inner = typeof e === 'number' ? instructionErrorNames[e] ?? `InstructionError${e}` : e && typeof e.code === 'number' ? { Custom: e.code } : String(e);
    return { InstructionError: [err.index, inner] };
  }
  if (name.includes('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  if (name.includes('DuplicateInstruction')) return { DuplicateInstruction: err.index };
  return String(err);
}

function errText(err) {
  const j = errJSON(err);
  return typeof j === 'string' ? j : JSON.stringify(j);
}

// The names of LiteSVM's fieldless error enums, in their declaration order (solana-sdk's TransactionError and InstructionError).
const transactionErrorNames = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee', 'InvalidAccountForFee',
  'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee', 'InvalidAccountIndex', 'SignatureFailure',
  'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance', 'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion', 'InvalidWritableAccount', 'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit', 'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded', 'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
const instructionErrorNames = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall', 'InsufficientFunds',
  'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized', 'UninitializedAccount', 'UnbalancedInstruction',
  'ModifiedProgramId', 'ExternalAccountLamportSpend', 'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified',
  'DuplicateAccountIndex', 'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId', 'CallDepth',
  'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded',
  'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar',
  'IllegalOwner', 'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded', 'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
];
