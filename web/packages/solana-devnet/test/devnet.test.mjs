// The dev network through @solana/kit, as a wallet or dapp uses it: funded
// dev accounts, SOL and USDC transfers, history, preflight and its options,
// subscriptions, and a restart that replays the journal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  address,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { WebSocket } from 'ws';
import { devAccounts, TEST_MNEMONIC } from '../src/keys.mjs';
import { start } from '../src/server.mjs';

let dir;
let net;
let rpc;
const keys = devAccounts(TEST_MNEMONIC, 3);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latch-solana-devnet-'));
  net = await start({ journal: join(dir, 'journal.jsonl') });
  rpc = createSolanaRpc(net.info.rpcUrl);
});

after(async () => {
  await net?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(instructions, payer, opts = {}) {
  const signer = await createKeyPairSignerFromPrivateKeyBytes(payer.seed);
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const msg = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions(signer), m),
  );
  const tx = await signTransactionMessageWithSigners(msg);
  return rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64', ...opts }).send();
}

test('dev accounts are the mnemonic\'s m/44\'/501\'/i\'/0\' keys, funded with SOL and USDC', async () => {
  assert.equal(net.info.accounts[0], 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96');
  assert.match(net.info.caipNetworkId, /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/);
  assert.equal((await rpc.getGenesisHash().send()), net.info.genesisHash);
  const { value } = await rpc.getBalance(address(net.info.accounts[0])).send();
  assert.equal(value, 1000_000_000_000n);
  const { value: accs } = await rpc.getTokenAccountsByOwner(address(net.info.accounts[0]), { mint: address(net.info.usdcMint) }, { encoding: 'jsonParsed' }).send();
  assert.equal(accs.length, 1);
  assert.equal(accs[0].account.data.parsed.info.tokenAmount.uiAmountString, '10000');
  const { value: bal } = await rpc.getTokenAccountBalance(accs[0].pubkey).send();
  assert.equal(bal.amount, '10000000000');
  assert.equal(bal.decimals, 6);
});

test('SOL and USDC transfers land, with balances, statuses, transactions and history', async () => {
  const [a, b] = keys;
  const sig = await send((s) => [getTransferSolInstruction({ source: s, destination: address(b.address), amount: lamports(500_000_000n) })], a);
  const { value: [status] } = await rpc.getSignatureStatuses([sig]).send();
  assert.equal(status.err, null);
  assert.equal(status.confirmationStatus, 'finalized');
  assert.equal((await rpc.getBalance(address(b.address)).send()).value, 1000_500_000_000n);
  assert.equal((await rpc.getBalance(address(a.address)).send()).value, 1000_000_000_000n - 500_000_000n - 5000n);

  const mint = address(net.info.usdcMint);
  const [from] = await findAssociatedTokenPda({ owner: address(a.address), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [to] = await findAssociatedTokenPda({ owner: address(b.address), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const sig2 = await send((s) => [getTransferCheckedInstruction({ source: from, mint, destination: to, authority: s, amount: 2_000_000n, decimals: 6 })], a);
  const tx = await rpc.getTransaction(sig2, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send();
  assert.equal(tx.meta.err, null);
  assert.equal(tx.meta.fee, 5000n);
  const pre = tx.meta.preTokenBalances.find((t) => t.owner === b.address);
  const post = tx.meta.postTokenBalances.find((t) => t.owner === b.address);
  assert.equal(pre.uiTokenAmount.amount, '10000000000');
  assert.equal(post.uiTokenAmount.amount, '10002000000');

  const history = await rpc.getSignaturesForAddress(address(a.address), { limit: 10 }).send();
  assert.deepEqual(history.map((h) => h.signature), [sig2, sig]);
  const older = await rpc.getSignaturesForAddress(address(a.address), { before: sig2 }).send();
  assert.deepEqual(older.map((h) => h.signature), [sig]);
});

test('preflight refuses a failing transaction; skipPreflight lands it failed; minContextSlot is honoured', async () => {
  const [, , c] = keys;
  const tooMuch = (s) => [getTransferSolInstruction({ source: s, destination: address(keys[0].address), amount: lamports(5000_000_000_000n) })];
  await assert.rejects(send(tooMuch, c), /simulation failed|custom program error|InsufficientFunds|0x1/i);
  const slot = await rpc.getSlot().send();
  await assert.rejects(send(tooMuch, c, { minContextSlot: slot + 100n }), /Minimum context slot/);
  const sig = await send(tooMuch, c, { skipPreflight: true });
  const { value: [status] } = await rpc.getSignatureStatuses([sig]).send();
  assert.notEqual(status.err, null);
});

test('requestAirdrop credits SOL and is bounded', async () => {
  const sig = await rpc.requestAirdrop(address(keys[2].address), lamports(2_000_000_000n)).send();
  const { value: [status] } = await rpc.getSignatureStatuses([sig]).send();
  assert.equal(status.err, null);
  await assert.rejects(rpc.requestAirdrop(address(keys[2].address), lamports(2000_000_000_000n)).send(), /at most 1000 SOL/);
});

test('signature and slot subscriptions notify', async () => {
  // A plain WebSocket client: @solana/kit's subscriptions need the global WebSocket of Node 22.
  const ws = new WebSocket(net.info.wsUrl);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const messages = [];
  const waiters = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(d.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const next = async (pred) => {
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0];
      await new Promise((r) => waiters.push(r));
    }
  };
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' }));
  const slotSub = (await next((m) => m.id === 1)).result;
  const sig = await send((s) => [getTransferSolInstruction({ source: s, destination: address(keys[1].address), amount: lamports(1n) })], keys[0]);
  const slotNote = await next((m) => m.method === 'slotNotification');
  assert.equal(slotNote.params.subscription, slotSub);
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'signatureSubscribe', params: [sig, { commitment: 'confirmed' }] }));
  const sigSub = (await next((m) => m.id === 2)).result;
  const note = await next((m) => m.method === 'signatureNotification');
  assert.equal(note.params.subscription, sigSub);
  assert.equal(note.params.result.value.err, null);
  // A subscription made before the transaction lands is told when it does.
  const [, b] = keys;
  const { value: blockhash } = await rpc.getLatestBlockhash().send();
  const signer = await createKeyPairSignerFromPrivateKeyBytes(b.seed);
  const msg = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: signer, destination: address(keys[0].address), amount: lamports(7n) })], m),
  );
  const tx = await signTransactionMessageWithSigners(msg);
  const pending = getSignatureFromTransaction(tx);
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'signatureSubscribe', params: [pending] }));
  const pendingSub = (await next((m) => m.id === 3)).result;
  await rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64' }).send();
  const late = await next((m) => m.method === 'signatureNotification' && m.params.subscription === pendingSub);
  assert.equal(late.params.result.value.err, null);
  ws.close();
});

test('a restart replays the journal: balances and history survive', async () => {
  const a = address(keys[0].address);
  const balance = (await rpc.getBalance(a).send()).value;
  const history = await rpc.getSignaturesForAddress(a).send();
  const slot = await rpc.getSlot().send();
  await net.close();
  net = await start({ journal: join(dir, 'journal.jsonl') });
  rpc = createSolanaRpc(net.info.rpcUrl);
  assert.ok(net.info.replayed >= 5);
  assert.equal((await rpc.getBalance(a).send()).value, balance);
  assert.deepEqual((await rpc.getSignaturesForAddress(a).send()).map((h) => h.signature), history.map((h) => h.signature));
  assert.ok((await rpc.getSlot().send()) >= slot);
  // And it goes on taking transactions.
  await send((s) => [getTransferSolInstruction({ source: s, destination: address(keys[1].address), amount: lamports(3n) })], keys[0]);
});

test('unknown methods and bad addresses get JSON-RPC errors', async () => {
  const post = (body) => fetch(net.info.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'getNope', params: [] })).error.code, -32601);
  const bad = await post({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['0xnotbase58notbase58notbase58notbase58'] });
  assert.equal(bad.error.code, -32602);
});

test('getSignaturesForAddress pages with a cursor from another address\'s list', async () => {
  const [a, b] = keys;
  const all = await rpc.getSignaturesForAddress(address(b.address)).send();
  const mine = await rpc.getSignaturesForAddress(address(a.address), { limit: 1 }).send();
  const older = await rpc.getSignaturesForAddress(address(b.address), { before: mine[0].signature }).send();
  const slot = mine[0].slot;
  assert.deepEqual(older.map((s) => s.signature), all.filter((s) => s.slot < slot).map((s) => s.signature));
});

test('a journal line cut short by a crash is dropped; later entries still replay', async () => {
  const { appendFileSync, readFileSync } = await import('node:fs');
  const path = join(dir, 'journal.jsonl');
  await net.close();
  appendFileSync(path, '{"kind":"transaction","wire":"AQ');
  net = await start({ journal: path });
  rpc = createSolanaRpc(net.info.rpcUrl);
  assert.ok(readFileSync(path, 'utf8').endsWith('\n'));
  await send((s) => [getTransferSolInstruction({ source: s, destination: address(keys[1].address), amount: lamports(11n) })], keys[0]);
  const before = (await rpc.getBalance(address(keys[1].address)).send()).value;
  await net.close();
  net = await start({ journal: path });
  rpc = createSolanaRpc(net.info.rpcUrl);
  assert.equal((await rpc.getBalance(address(keys[1].address)).send()).value, before);
});
