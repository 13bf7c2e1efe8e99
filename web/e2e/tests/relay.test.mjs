// WalletConnect conformance of latchd's relay: two real @walletconnect/sign-client 2.21.8 clients, a dapp and a
// wallet (web/e2e/lib/wc-peer.mjs), pair through a real `latchd dev`, sign, send, emit and disconnect. Also the
// mailbox (the wallet joins after the proposal), redelivery after the dapp was away, and two latchd nodes sharing
// Redis (when LATCH_TEST_REDIS is set). The clients must reach no host but latchd and its dev chains.
import { strict as assert } from 'node:assert';
import { after, afterEach, before, test } from 'node:test';
import { createPublicClient, http, parseEther, toHex, verifyMessage, verifyTypedData } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { startLatchd } from '../lib/latchd.mjs';
import { MemoryStorage, createDapp, createWallet, guardNetwork, relayUrlOf } from '../lib/wc-peer.mjs';

const guard = guardNetwork();

/** @type {import('../lib/latchd.mjs').Latchd} */
let latchd;
/** @type {(() => Promise<void>)[]} peers and extra nodes to close after the file */
const cleanups = [];

before(async () => {
  latchd = await startLatchd();
});

afterEach(() => {
  assert.deepEqual(guard.violations, [], 'a WalletConnect client contacted a host other than latchd');
});

after(async () => {
  for (const close of cleanups.reverse()) await close().catch(() => {});
  await latchd?.stop();
  guard.restore();
  if (process.env.LATCH_DEBUG_HANDLES) {
    for (const h of /** @type {any} */ (process)._getActiveHandles()) {
      if (h.constructor?.name === 'Timeout') console.error('timer', h._idleTimeout, String(h._onTimeout).slice(0, 300));
    }
  }
});

/** The private key of mnemonic account i (the dev chains fund the first ten). */
function devKey(/** @type {import('../lib/latchd.mjs').DevInfo} */ info, i) {
  const key = mnemonicToAccount(info.mnemonic, { addressIndex: i }).getHdKey().privateKey;
  if (!key) throw new Error('no private key');
  return toHex(key);
}

/** @param {import('../lib/latchd.mjs').Latchd} node @param {{storage?: MemoryStorage, name?: string}} [more] */
async function dappOn(node, more = {}) {
  const dapp = await createDapp({ relayUrl: relayUrlOf(node.apiUrl), projectId: node.info.projectId, ...more });
  cleanups.push(dapp.close);
  return dapp;
}

/** @param {import('../lib/latchd.mjs').Latchd} node */
async function walletOn(node, accountIndex = 1) {
  const wallet = await createWallet({
    relayUrl: relayUrlOf(node.apiUrl),
    projectId: node.info.projectId,
    privateKey: devKey(node.info, accountIndex),
    chains: node.info.networks,
  });
  cleanups.push(wallet.close);
  return wallet;
}

/** Reads one counter of a latchd's /metrics (served on its admin listener). */
async function metric(/** @type {import('../lib/latchd.mjs').Latchd} */ node, /** @type {string} */ series) {
  const text = await (await fetch(`${node.info.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

const chain = 'eip155:31337';

test('a dapp and a wallet pair, sign, send a transaction, emit an event and disconnect through the relay', { timeout: 90_000 }, async () => {
  const dapp = await dappOn(latchd);
  const wallet = await walletOn(latchd);
  const delivered = await metric(latchd, 'latch_relay_messages_delivered_total');

  const { uri, approval } = await dapp.connect({ chains: [chain] });
  assert.match(uri, /^wc:[0-9a-f]{64}@2\?/);
  assert.match(uri, /relay-protocol=irn/);
  await wallet.pair(uri);
  const session = await approval();
  assert.deepEqual(session.namespaces.eip155.accounts, [`${chain}:${wallet.address}`]);
  assert.deepEqual(session.namespaces.eip155.chains, [chain]);
  const walletSession = await wallet.nextSession();
  assert.equal(walletSession.topic, session.topic);

  // personal_sign, verified against the wallet's address.
  const message = 'Sign in to Latch through WalletConnect';
  const signature = await dapp.request(session.topic, chain, 'personal_sign', [toHex(message), wallet.address]);
  assert.ok(await verifyMessage({ address: wallet.address, message, signature: /** @type {`0x${string}`} */ (signature) }), 'personal_sign signature');

  // eth_signTypedData_v4.
  const typed = {
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }],
      Login: [{ name: 'user', type: 'address' }, { name: 'nonce', type: 'uint256' }],
    },
    primaryType: 'Login',
    domain: { name: 'Latch', chainId: 31337 },
    message: { user: wallet.address, nonce: 7 },
  };
  const typedSig = await dapp.request(session.topic, chain, 'eth_signTypedData_v4', [wallet.address, JSON.stringify(typed)]);
  const { EIP712Domain: _, ...types } = typed.types;
  assert.ok(
    await verifyTypedData({ address: wallet.address, domain: typed.domain, types, primaryType: 'Login', message: typed.message, signature: /** @type {`0x${string}`} */ (typedSig) }),
    'eth_signTypedData_v4 signature',
  );

  // eth_sendTransaction on the dev chain.
  const rpcUrl = latchd.info.networks.find((n) => n.caipNetworkId === chain)?.rpcUrl;
  assert.ok(rpcUrl);
  const to = latchd.info.accounts[2];
  const hash = await dapp.request(session.topic, chain, 'eth_sendTransaction', [{ from: wallet.address, to, value: toHex(parseEther('0.5')) }]);
  const receipt = await createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({ hash: /** @type {`0x${string}`} */ (hash) });
  assert.equal(receipt.status, 'success');
  assert.equal(receipt.from.toLowerCase(), wallet.address.toLowerCase());

  // A rejected request reaches the dapp as the wallet's error.
  wallet.rejectNext('personal_sign');
  await assert.rejects(dapp.request(session.topic, chain, 'personal_sign', [toHex('no'), wallet.address]), (/** @type {any} */ err) => {
    assert.equal(err.code, 4001);
    assert.match(err.message, /User rejected/);
    return true;
  });

  // An event from the wallet.
  await wallet.emit(session.topic, chain, 'accountsChanged', [wallet.address]);
  const event = await dapp.next('session_event');
  assert.equal(event.topic, session.topic);
  assert.equal(event.params.event.name, 'accountsChanged');
  assert.deepEqual(event.params.event.data, [wallet.address]);

  // The dapp ends the session; the wallet hears of it.
  await dapp.disconnect(session.topic);
  const deleted = await wallet.next('session_delete');
  assert.equal(deleted.topic, session.topic);
  assert.equal(wallet.client.session.getAll().length, 0);

  // It all went through latchd's relay.
  assert.ok((await metric(latchd, 'latch_relay_messages_delivered_total')) >= delivered + 10, 'latchd delivered the messages');
});

test('the wallet joins after the proposal was published: the proposal waits in the mailbox', { timeout: 60_000 }, async () => {
  const dapp = await dappOn(latchd);
  const { uri, approval } = await dapp.connect({ chains: [chain] });
  // connect() resolves once latchd accepted wc_proposeSession; nobody else is on the pairing topic yet.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const wallet = await walletOn(latchd, 3);
  await wallet.pair(uri);
  const session = await approval();
  assert.deepEqual(session.namespaces.eip155.accounts, [`${chain}:${wallet.address}`]);
  const sig = await dapp.request(session.topic, chain, 'personal_sign', [toHex('late'), wallet.address]);
  assert.ok(await verifyMessage({ address: wallet.address, message: 'late', signature: /** @type {`0x${string}`} */ (sig) }));
});

test('the dapp goes offline and comes back: its session is re-subscribed and what it missed is delivered', { timeout: 60_000 }, async () => {
  const storage = new MemoryStorage();
  const name = `latch-offline-dapp-${process.pid}`;
  const dapp = await dappOn(latchd, { storage, name });
  const wallet = await walletOn(latchd, 4);
  const { uri, approval } = await dapp.connect({ chains: [chain] });
  await wallet.pair(uri);
  const session = await approval();
  await wallet.nextSession(); // the dapp has acknowledged the settlement: nothing is in flight

  // The tab closes; meanwhile the wallet switches accounts.
  await dapp.close();
  await wallet.emit(session.topic, chain, 'accountsChanged', [wallet.address]);
  await wallet.emit(session.topic, chain, 'chainChanged', '0x7a69');

  // The tab reopens with its storage: same client id, same session, messages from the mailbox.
  const reopened = await dappOn(latchd, { storage, name });
  assert.equal(reopened.client.session.get(session.topic).topic, session.topic);
  const first = await reopened.next('session_event');
  const second = await reopened.next('session_event');
  assert.deepEqual([first.params.event.name, second.params.event.name].sort(), ['accountsChanged', 'chainChanged']);
  const sig = await reopened.request(session.topic, chain, 'personal_sign', [toHex('back'), wallet.address]);
  assert.ok(await verifyMessage({ address: wallet.address, message: 'back', signature: /** @type {`0x${string}`} */ (sig) }));
});

test(
  'two latchd nodes sharing Redis act as one relay: the dapp on one, the wallet on the other',
  { timeout: 120_000, skip: process.env.LATCH_TEST_REDIS ? false : 'LATCH_TEST_REDIS is not set (eval "$(bash scripts/services.sh)")' },
  async () => {
    const redis = /** @type {string} */ (process.env.LATCH_TEST_REDIS);
    const args = ['--redis-url', redis, '--dev-chains', '31337'];
    const [nodeA, nodeB] = await Promise.all([startLatchd({ extraArgs: args }), startLatchd({ extraArgs: args })]);
    cleanups.push(nodeA.stop, nodeB.stop);
    const dapp = await dappOn(nodeA);
    const wallet = await walletOn(nodeB, 5);
    const { uri, approval } = await dapp.connect({ chains: [chain] });
    await wallet.pair(uri);
    const session = await approval();
    const sig = await dapp.request(session.topic, chain, 'personal_sign', [toHex('two nodes'), wallet.address]);
    assert.ok(await verifyMessage({ address: wallet.address, message: 'two nodes', signature: /** @type {`0x${string}`} */ (sig) }));
    await wallet.emit(session.topic, chain, 'accountsChanged', [wallet.address]);
    assert.equal((await dapp.next('session_event')).params.event.name, 'accountsChanged');
    // Each node carried its own side.
    assert.ok((await metric(nodeA, 'latch_relay_messages_delivered_total')) > 0, 'node A delivered to the dapp');
    assert.ok((await metric(nodeB, 'latch_relay_messages_delivered_total')) > 0, 'node B delivered to the wallet');
  },
);
