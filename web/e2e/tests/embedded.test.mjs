// The embedded (e-mail) wallet end to end (issue 16): the demo dapp served by
// a real `latchd dev`, whose frame listener serves the frame app; codes and
// device-approval links are read from latchd's dev outbox; transactions are
// checked on the dev chain itself. No test wallet is injected: the e-mail
// wallet is the only wallet. Build the web packages (the frame included) and
// bin/latchd-dev first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { createPublicKey, randomBytes, verify as cryptoVerify } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { base58 } from '@scure/base';
import { createPublicClient, formatEther, http, parseEther } from 'viem';
import { approvalShown, approveInFrame, rejectInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

// latchd believes X-Forwarded-For from the loopback (its only client here): the stranger below comes from another IP.
const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0', '--trusted-proxies', '127.0.0.1/32'] });
const devA = 31337;
const email = `visitor-${Date.now()}@example.com`;
const { login, mailCount } = emailLogin(harness, email);
/** The wallet's address after the first login; later tests expect the same one. */
let walletAddress = '';

/** @typedef {import('playwright-core').Page} Page */

function rpc(chainId = devA) {
  const network = harness.latchd.info.networks.find((n) => n.chainId === chainId);
  assert.ok(network, `dev network ${chainId}`);
  return createPublicClient({ transport: http(network.rpcUrl) });
}

/** Polls latchd's RPC proxy (what the widget reads through) until the address holds `wei`. */
async function waitForProxyBalance(/** @type {number} */ chainId, /** @type {string} */ address, /** @type {bigint} */ wei) {
  const { apiUrl, info } = harness.latchd;
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${apiUrl}/v1?chainId=eip155:${chainId}&projectId=${info.projectId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: /** @type {string} */ (info.demoUrl).replace(/\/$/, '') },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, 'latest'] }),
    });
    const { result } = await res.json();
    if (result && BigInt(result) === wei) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`latchd's RPC proxy never saw ${wei} wei at ${address} on ${chainId}`);
}

// These tests check the wallet's own key (the EOA): the demo starts it as a plain account, as an app with
// defaultAccountTypes { eip155: 'eoa' } does. The default smart account is smart-account.test.mjs's.
async function openDemo() {
  const testPage = await harness.newPage({ wallet: false });
  await testPage.page.goto(`${harness.latchd.info.demoUrl}?accountType=eoa`);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

test('e-mail login with the code from the outbox; address and balance; reload keeps it; personal_sign and a 0.01 ETH send approved in the wallet frame land on the dev chain; a forged frame event is ignored', async () => {
  const testPage = await openDemo();
  const { page } = testPage;
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  // No e-mail login was used in this browser: no frame until the visitor asks for a code.
  assert.equal(await page.locator('iframe#latch-frame').count(), 0);
  walletAddress = await login(page);
  assert.match(walletAddress, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(await page.locator('iframe#latch-frame').isVisible(), false);

  // 1 ETH on every dev network, so the wallet holds it on whichever one it is on.
  for (const network of harness.latchd.info.networks) {
    const funded = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: walletAddress, caipNetworkId: network.caipNetworkId, amount: '1' }),
    });
    assert.equal(funded.status, 200, await funded.text());
    assert.equal(await rpc(network.chainId).getBalance({ address: /** @type {`0x${string}`} */ (walletAddress) }), parseEther('1'));
    // latchd's RPC proxy follows the chain head by polling: wait until it sees the new block.
    await waitForProxyBalance(network.chainId, walletAddress, parseEther('1'));
  }

  // Reload → still signed in, no new code mailed; the frame is created at start since an e-mail login was used.
  const mails = await mailCount();
  await page.reload();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
  assert.equal(JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent())).address, walletAddress);
  assert.equal(await mailCount(), mails);

  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), walletAddress);
  // Switch to the second dev network through the e-mail wallet (SWITCH_NETWORK to the frame), and back: the
  // balance is read again on each, and both hold the 1 ETH.
  const [first, second] = harness.latchd.info.networks;
  assert.ok(first && second, 'two dev networks');
  for (const target of [second, first]) {
    await page.getByTestId('latch-account-network').click();
    await page.getByTestId(`latch-network-${target.chainId}`).click();
    await page.getByTestId('latch-view-Account').waitFor();
    await page.getByTestId('latch-account-network').filter({ hasText: target.name }).waitFor();
    await page.waitForFunction(() => /^1\.000 ETH$/.test(document.querySelector('[data-testid="latch-account-balance"]')?.textContent?.trim() ?? ''));
  }
  const network = first;
  await page.getByTestId('latch-modal-close').click();

  // personal_sign: the message is shown; a rejection returns an error and no signature.
  await page.getByTestId('demo-sign-input').fill('hello from the e-mail wallet');
  await page.getByTestId('demo-sign-message').click();
  assert.equal(await (await approvalShown(page)).getByTestId('latch-approve-message').textContent(), 'hello from the e-mail wallet');
  await rejectInFrame(page);
  await page.getByTestId('demo-sign-error').waitFor();
  // Had the forged answer been taken, the request would have ended with it, not with the visitor's rejection.
  assert.match(/** @type {string} */ (await page.getByTestId('demo-sign-error').textContent()), /declined|rejected/i);
  assert.equal(await page.getByTestId('demo-signature').count(), 0);

  await page.getByTestId('demo-sign-message').click();
  await approveInFrame(page);
  await page.getByTestId('demo-signature-valid').waitFor();
  assert.equal(await page.getByTestId('demo-signature-valid').textContent(), 'valid signature of the connected account');

  // The Solana key as a Wallet Standard wallet: a Solana dapp that starts now finds it (app-ready), and it signs a
  // message and a transaction after the visitor's approval; the signatures verify under the account's ed25519 key.
  const solana = await page.evaluate(() => {
    /** @type {any[]} */
    const found = [];
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (/** @type {any} */ w) => (found.push(w), () => undefined) } }));
    /** @type {any} */ (window).solanaWallets = found;
    return found.map((w) => ({ name: w.name, chains: w.chains, features: Object.keys(w.features), accounts: w.accounts.map((/** @type {any} */ a) => ({ address: a.address, publicKey: Array.from(a.publicKey) })) }));
  });
  assert.equal(solana.length, 1, 'one Wallet Standard wallet');
  assert.equal(solana[0].name, 'E-mail wallet');
  assert.deepEqual(solana[0].chains, ['solana:mainnet', 'solana:devnet', 'solana:testnet']);
  for (const f of ['standard:connect', 'standard:events', 'solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction']) assert.ok(solana[0].features.includes(f), f);
  assert.equal(solana[0].accounts.length, 1);
  const solanaKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(solana[0].accounts[0].publicKey).toString('base64url') }, format: 'jwk' });

  const signedMessage = page.evaluate(async () => {
    const w = /** @type {any} */ (window).solanaWallets[0];
    const [out] = await w.features['solana:signMessage'].signMessage({ account: w.accounts[0], message: new TextEncoder().encode('hello from Solana') });
    return Array.from(/** @type {Uint8Array} */ (out.signature));
  });
  assert.equal(await (await approvalShown(page)).getByTestId('latch-approve-message').textContent(), 'hello from Solana');
  await approveInFrame(page);
  assert.ok(cryptoVerify(null, Buffer.from('hello from Solana'), solanaKey, Buffer.from(await signedMessage)), 'the message signature verifies');

  // A legacy transaction the account alone signs: one empty signature slot, then its message.
  const message = Buffer.concat([
    Buffer.from([1, 0, 1]), // header: 1 signer, 0 read-only signed, 1 read-only unsigned
    Buffer.from([2]), Buffer.from(solana[0].accounts[0].publicKey), Buffer.alloc(32), // keys: the account, the system program
    Buffer.alloc(32, 9), // a recent blockhash
    Buffer.from([1, 1, 1, 0, 0]), // one instruction: program 1, account 0, no data
  ]);
  const wire = Buffer.concat([Buffer.from([1]), Buffer.alloc(64), message]);
  const signedTx = page.evaluate(async (bytes) => {
    const w = /** @type {any} */ (window).solanaWallets[0];
    const [out] = await w.features['solana:signTransaction'].signTransaction({ account: w.accounts[0], transaction: Uint8Array.from(bytes), chain: 'solana:devnet' });
    return Array.from(/** @type {Uint8Array} */ (out.signedTransaction));
  }, Array.from(wire));
  await approveInFrame(page);
  const signedWire = Buffer.from(await signedTx);
  assert.deepEqual(signedWire.subarray(65), message, 'the message is signed as given');
  assert.ok(cryptoVerify(null, message, solanaKey, signedWire.subarray(1, 65)), 'the transaction signature verifies');

  // signAndSendTransaction on the local Solana network (latchd dev runs it): 0.1 SOL to dev account #2, sent by the
  // frame through latchd's RPC proxy, lands on the network.
  const solanaNet = harness.latchd.info.solana;
  assert.ok(solanaNet, 'latchd dev runs the Solana dev network');
  /** @param {string} method @param {unknown[]} params */
  const sol = async (method, params) => {
    const res = await (await fetch(solanaNet.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
    if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
    return res.result;
  };
  const owner = solana[0].accounts[0].address;
  const solReceiver = solanaNet.accounts[2];
  await sol('requestAirdrop', [owner, 1_000_000_000]);
  for (let i = 0; i < 100 && (await sol('getBalance', [owner])).value < 1_000_000_000; i++) await new Promise((r) => setTimeout(r, 100));
  const receiverBefore = (await sol('getBalance', [solReceiver])).value;
  const { blockhash } = (await sol('getLatestBlockhash', [])).value;
  const lamports = Buffer.alloc(8);
  lamports.writeBigUInt64LE(100_000_000n);
  const transfer = Buffer.concat([
    Buffer.from([1, 0, 1]), // 1 signer; the system program read-only
    Buffer.from([3]), Buffer.from(solana[0].accounts[0].publicKey), Buffer.from(base58.decode(solReceiver)), Buffer.alloc(32),
    Buffer.from(base58.decode(blockhash)),
    Buffer.from([1, 2, 2, 0, 1, 12]), Buffer.from([2, 0, 0, 0]), lamports, // system program Transfer(from 0, to 1)
  ]);
  const sent = page.evaluate(async ({ bytes, chain }) => {
    const w = /** @type {any} */ (window).solanaWallets[0];
    const [out] = await w.features['solana:signAndSendTransaction'].signAndSendTransaction({ account: w.accounts[0], transaction: Uint8Array.from(bytes), chain });
    return Array.from(/** @type {Uint8Array} */ (out.signature));
  }, { bytes: Array.from(Buffer.concat([Buffer.from([1]), Buffer.alloc(64), transfer])), chain: solanaNet.caipNetworkId });
  // The frame decodes the transfer: 0.1 SOL from the account to #2.
  const instructions = (await approvalShown(page)).getByTestId('latch-approve-instructions');
  assert.equal(await instructions.textContent(), `System: transfer 0.1 SOL ${owner} → ${solReceiver}`);
  await approveInFrame(page);
  const signature = base58.encode(Uint8Array.from(await sent));
  let status;
  for (let i = 0; i < 100 && !status; i++) {
    status = (await sol('getSignatureStatuses', [[signature]])).value[0];
    if (!status) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(status && status.err === null, `the transfer landed: ${JSON.stringify(status)}`);
  assert.equal((await sol('getBalance', [solReceiver])).value, receiverBefore + 100_000_000);

  // Send 0.01 ETH to account #2 through the widget's Send form, on the account's network.
  const client = rpc(network.chainId);
  const receiver = /** @type {`0x${string}`} */ (harness.latchd.info.accounts[2]);
  const before = await client.getBalance({ address: receiver });
  const startBlock = await client.getBlockNumber();
  // The Send form offers the tokens latchd's account API lists: wait until it lists the faucet's ETH.
  for (let i = 0; i < 300; i++) {
    const url = `${harness.latchd.apiUrl}/v1/account/${walletAddress}/balance?projectId=${harness.latchd.info.projectId}&chainId=eip155:${network.chainId}`;
    const res = await fetch(url, { headers: { Origin: /** @type {string} */ (harness.latchd.info.demoUrl).replace(/\/$/, '') } });
    const { balances } = await res.json();
    if (balances?.some((/** @type {{symbol: string}} */ b) => b.symbol === 'ETH')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // The page may still hold the balances it read before the faucet (its query cache keeps them 30 s, as latchd
  // does): a reload reads them afresh, and keeps the login.
  await page.reload();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  const option = await page.locator('[data-testid="latch-send-token"] option', { hasText: /^ETH / }).first().textContent();
  await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (option) });
  await page.getByTestId('latch-send-amount').fill('0.01');
  await page.getByTestId('latch-send-receiver').fill(receiver);
  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-send-confirm').click();
  const approve = await approvalShown(page);
  assert.equal((await approve.getByTestId('latch-approve-recipient').textContent())?.toLowerCase(), receiver.toLowerCase());
  assert.equal(await approve.getByTestId('latch-approve-amount').textContent(), '0.01');
  assert.equal(await approve.getByTestId('latch-approve-token').textContent(), 'ETH');
  assert.match(/** @type {string} */ (await approve.getByTestId('latch-approve-fee').textContent()), /^≤ [\d.]+ ETH$/);
  await approveInFrame(page);

  // The receipt on the dev chain: a successful transfer of 0.01 ETH from the wallet to #2.
  let receipt;
  for (let i = 0; i < 100 && !receipt; i++) {
    const latest = await client.getBlockNumber();
    for (let n = startBlock + 1n; n <= latest && !receipt; n++) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      const tx = block.transactions.find((t) => t.from.toLowerCase() === walletAddress.toLowerCase() && t.to?.toLowerCase() === receiver.toLowerCase());
      if (tx) receipt = { tx, receipt: await client.getTransactionReceipt({ hash: tx.hash }) };
    }
    if (!receipt) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(receipt, 'the send is mined');
  assert.equal(receipt.receipt.status, 'success');
  assert.equal(receipt.tx.value, parseEther('0.01'));
  assert.equal(formatEther((await client.getBalance({ address: receiver })) - before), '0.01');
  await page.getByTestId('latch-modal-close').click();
  await page.getByTestId('latch-view-WalletSend').waitFor({ state: 'detached' });
  // The page itself posts what the frame would, with the id of a real request waiting for approval: a success
  // answer carrying a made-up signature. It is not from the frame's window and origin, so it is dropped.
  await page.evaluate(() => {
    const seen = /** @type {any[]} */ ([]);
    /** @type {any} */ (window).frameEvents = seen;
    addEventListener('message', (e) => typeof e.data?.type === 'string' && e.data.type.startsWith('@latch-frame/') && seen.push(e.data));
  });
  await page.getByTestId('demo-sign-input').fill('forged answer');
  await page.getByTestId('demo-sign-message').click();
  await approvalShown(page);
  const requestId = await page.evaluate(() => /** @type {any} */ (window).frameEvents.find((/** @type {any} */ e) => e.type === '@latch-frame/RPC_APPROVAL_REQUIRED')?.payload.requestId);
  assert.ok(requestId, 'the frame asked for approval');
  await page.evaluate(
    (id) =>
      new Promise((resolve) => {
        addEventListener('message', (e) => e.data === 'probe' && resolve(undefined));
        window.postMessage({ id, type: '@latch-frame/RPC_REQUEST_SUCCESS', payload: `0x${'11'.repeat(65)}` }, '*');
        window.postMessage('probe', '*');
      }),
    requestId,
  );
  assert.equal(await page.getByTestId('demo-signature').count(), 0, 'the forged answer is not taken');
  assert.equal(await (await approvalShown(page)).getByTestId('latch-approve-message').textContent(), 'forged answer');
  await rejectInFrame(page);
  await page.getByTestId('demo-sign-error').waitFor();
  // Had the forged answer been taken, the request would have ended with it, not with the visitor's rejection.
  assert.match(/** @type {string} */ (await page.getByTestId('demo-sign-error').textContent()), /declined|rejected/i);
  assert.equal(await page.getByTestId('demo-signature').count(), 0);
});

test('a second browser profile (a new device): device approval, then the pasted code, then the same address; sign-out', async () => {
  const testPage = await openDemo();
  const { page } = testPage;
  // latchd refuses a new code for this address within 30 s of the last one (the login waits it out).
  testPage.allowConsoleErrors(/status of 429/);
  const address = await login(page, { paste: true, expectDevice: true });
  assert.equal(address, walletAddress);

  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-disconnect').click();
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'disconnected');
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('latch:embedded:')));
  assert.deepEqual(keys, [], 'sign-out clears the e-mail wallet keys');
  // After a reload the page asks for nothing: no frame is created at start.
  await page.reload();
  await page.getByTestId('latch-connect-button').waitFor();
  assert.equal(await page.locator('iframe#latch-frame').count(), 0);
  assert.equal(JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent())).status, 'disconnected');
});

test('a page on an origin the project does not allow cannot drive the frame: nothing answers, nothing is mailed or signed', async () => {
  const before = await mailCount();
  const frameUrl = harness.latchd.info.frameOrigin;
  const html = `<!doctype html><meta charset="utf-8"><body><script>
    window.events = [];
    addEventListener('message', (e) => window.events.push(e.data));
    const f = document.createElement('iframe');
    f.src = ${JSON.stringify(`${frameUrl}/?projectId=${harness.latchd.info.projectId}&chainId=eip155%3A31337&version=1&enableLogger=false`)};
    f.onload = () => {
      f.contentWindow.postMessage({ id: 'e1', type: '@latch-app/CONNECT_EMAIL', payload: { email: ${JSON.stringify(email)} } }, '*');
      f.contentWindow.postMessage({ id: 'e2', type: '@latch-app/RPC_REQUEST', payload: { method: 'personal_sign', params: ['0x01', ${JSON.stringify(walletAddress)}], chainNamespace: 'eip155', chainId: 31337 } }, '*');
      window.loaded = true;
    };
    document.body.appendChild(f);
  </script>`;
  // The control: the same page on 127.0.0.1 (a local origin latchd dev allows) does get the frame's READY.
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  try {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    const control = await harness.browser.newPage();
    const started = Date.now();
    await control.page.goto(`http://127.0.0.1:${port}/`);
    await control.page.waitForFunction(() => /** @type {any} */ (window).events.some((/** @type {any} */ e) => e?.type === '@latch-frame/READY'));
    const readyMs = Date.now() - started;
    // Its requests went out before READY and were dropped, like any request before the frame is ready.
    assert.equal(await mailCount(), before);

    // A page of an origin the project does not allow (a data: URL's opaque origin): the browser refuses to frame
    // latchd's frame there (CSP frame-ancestors), and the frame would drop its messages anyway.
    const evil = await harness.browser.newPage();
    evil.allowConsoleErrors(/frame-ancestors|Refused to frame/i);
    await evil.page.goto(`data:text/html;base64,${Buffer.from(html).toString('base64')}`);
    await evil.page.waitForFunction(() => /** @type {any} */ (window).loaded === true);
    // Three times what READY took for the allowed page, and at least 3 s.
    await new Promise((r) => setTimeout(r, Math.max(3000, 3 * readyMs)));
    const events = await evil.page.evaluate(() => /** @type {any} */ (window).events);
    assert.deepEqual(events.filter((/** @type {any} */ e) => typeof e?.type === 'string' && e.type.startsWith('@latch-frame/')), []);
    assert.equal(await mailCount(), before, 'nothing mailed for the other origin');
  } finally {
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
});

test('Update email from Account: the code mailed to the current address, then the one mailed to the new; the new address logs in to the same wallet', async () => {
  const stamp = Date.now();
  const current = `change-${stamp}@example.com`;
  const next = `changed-${stamp}@example.com`;
  const before = emailLogin(harness, current);
  const after = emailLogin(harness, next);

  const first = await openDemo();
  first.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  const { page } = first;
  const address = await before.login(page);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-email').filter({ hasText: current }).waitFor();
  await page.getByTestId('latch-account-update-email').click();
  const view = page.getByTestId('latch-view-UpdateEmail');
  await view.waitFor();

  // A malformed address is refused by its message and mails nothing (spec §5).
  const mailsBefore = await before.mailCount();
  await view.getByTestId('latch-update-email-input').fill('not-an-email');
  await view.getByTestId('latch-update-email-submit').click();
  await view.getByTestId('latch-update-email-error').waitFor();
  assert.equal(await before.mailCount(), mailsBefore);

  await view.getByTestId('latch-update-email-input').fill(next);
  await view.getByTestId('latch-update-email-submit').click();
  await view.getByTestId('latch-update-email-primaryOtp').filter({ hasText: current }).waitFor();
  const primary = await before.mail('email-change', mailsBefore);
  await page.getByTestId('latch-otp-input-0').click();
  await page.keyboard.type(/** @type {string} */ (primary.code));

  await view.getByTestId('latch-update-email-secondaryOtp').filter({ hasText: next }).waitFor();
  const secondary = await after.mail('email-change', 0);
  await page.getByTestId('latch-otp-input-0').click();
  await page.keyboard.type(/** @type {string} */ (secondary.code));
  await view.getByTestId('latch-update-email-done').filter({ hasText: next }).waitFor();

  // Another browser profile logs in with the new address (a new device: approval, then code): the same wallet.
  const second = await openDemo();
  assert.equal(await after.login(second.page, { expectDevice: true }), address);
});

/**
 * A stranger's e-mail start for an address (issue 40, finding 4): a new device id each time, from another IP.
 * @param {string} address
 */
async function strangerStart(address) {
  const { apiUrl, info } = harness.latchd;
  const res = await fetch(`${apiUrl}/auth/v1/email/start?projectId=${info.projectId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.7' },
    body: JSON.stringify({ email: address, deviceId: randomBytes(16).toString('base64url') }),
  });
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0), body: await res.json() };
}

test("a stranger's 20 starts for the visitor's address leave the visitor's link valid and their next code deliverable", async () => {
  const address = `targeted-${Date.now()}@example.com`;
  const visitor = emailLogin(harness, address);
  const testPage = await openDemo();
  const { page } = testPage;
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-email-input').fill(address);
  await page.getByTestId('latch-email-submit').click();
  await page.getByTestId('latch-view-EmailVerifyDevice').waitFor();
  const link = /** @type {string} */ ((await visitor.mail('device', 0)).link);

  // 20 starts; a start refused for latchd's 30 s resend cooldown is sent again once the Retry-After it names is
  // over (once: a stranger who waits), anything else refused is the stranger's own limits.
  const answers = [];
  let waited = false;
  for (let i = 0; i < 20; i++) {
    let a = await strangerStart(address);
    if (a.status === 429 && /^Please try again after/.test(a.body.reasons?.[0]?.description ?? '') && !waited) {
      waited = true;
      await new Promise((r) => setTimeout(r, a.retryAfter * 1000));
      a = await strangerStart(address);
    }
    answers.push(a);
  }
  assert.ok(answers.every((a) => a.status === 200 || a.status === 429), JSON.stringify(answers.map((a) => a.status)));

  // The visitor's link still approves their device, and the code that follows is sent and logs them in.
  const before = await visitor.mailCount();
  await visitor.approveDevice(link);
  await page.getByTestId('latch-view-EmailVerifyOtp').waitFor();
  const { code } = await visitor.mail('code', before);
  await page.getByTestId('latch-otp-input-0').click();
  await page.keyboard.type(/** @type {string} */ (code));
  await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').status === 'connected');
  // What refused the stranger: their own IP's share of the address, never a cooldown the visitor's start set.
  const refused = answers.filter((a) => a.status === 429).map((a) => a.body.reasons?.[0]?.description);
  assert.ok(refused.length > 0 && refused.every((r) => /^Too many requests: e-mails to this address from this IP/.test(r)), JSON.stringify(refused));
});
