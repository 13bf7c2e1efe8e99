// The embedded wallet's approvals are the visitor's, in the wallet frame (issue 40, finding 1): a script on the
// dapp page cannot approve by message, a page that covers or fades the frame cannot get the visitor's click
// through it, and the visitor's own click in the frame approves (personal_sign, typed data, an ETH send, a
// smart account's user operation, a Solana transfer), each checked against the key or the chain. Against the
// demo dapp served by a real `latchd dev` (its frame listener serves the frame), Chromium. Build the web
// packages (the frame included) and bin/latchd-dev first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { base58 } from '@scure/base';
import { createPublicClient, http, parseEther, recoverMessageAddress, recoverTypedDataAddress } from 'viem';
import { approvalShown, approveInFrame, rejectInFrame, walletFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });
let logins = 0;

/** @typedef {import('playwright-core').Page} Page */

/** The demo, logged in to a new e-mail wallet; its account the EOA (accountType=eoa) unless smart is asked for. */
async function signedIn(/** @type {{ smart?: boolean }} */ options = {}) {
  const testPage = await harness.newPage({ wallet: false });
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  const { page } = testPage;
  await page.goto(`${harness.latchd.info.demoUrl}${options.smart ? '' : '?accountType=eoa'}`);
  await page.getByTestId('latch-connect-button').waitFor();
  const address = await emailLogin(harness, `approver-${++logins}-${Date.now()}@example.com`).login(page);
  return { page, address: /** @type {`0x${string}`} */ (address) };
}

/** Starts an EIP-1193 request through the connected wallet's provider; resolves with {result} or {error, code}. */
function walletRequest(/** @type {Page} */ page, /** @type {string} */ method, /** @type {unknown[] | object} */ params) {
  return page.evaluate(
    async ({ method, params }) => {
      const config = /** @type {any} */ (window).latch.getWagmiConfig();
      const provider = await config.state.connections.get(config.state.current).connector.getProvider();
      return provider.request({ method, params }).then(
        (/** @type {unknown} */ result) => ({ result }),
        (/** @type {any} */ e) => ({ error: String(e?.message), code: e?.code }),
      );
    },
    { method, params },
  );
}

/** The dev network the wallet is on (its provider's eth_chainId), and a client of that chain. */
async function walletChain(/** @type {Page} */ page) {
  const { result } = /** @type {{result: string}} */ (await walletRequest(page, 'eth_chainId', []));
  const network = harness.latchd.info.networks.find((n) => n.chainId === Number(result));
  assert.ok(network, `dev network ${result}`);
  return { network, client: createPublicClient({ transport: http(network.rpcUrl) }) };
}

/** amount ETH from latchd dev's faucet, then waits until latchd's RPC proxy (what the frame reads through) sees it. */
async function faucet(/** @type {string} */ address, /** @type {{caipNetworkId: string, chainId: number}} */ network, amount = '1') {
  const res = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, caipNetworkId: network.caipNetworkId, amount }),
  });
  assert.equal(res.status, 200, await res.text());
  const { apiUrl, info } = harness.latchd;
  for (let i = 0; i < 200; i++) {
    const proxied = await fetch(`${apiUrl}/v1?chainId=eip155:${network.chainId}&projectId=${info.projectId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: /** @type {string} */ (info.demoUrl).replace(/\/$/, '') },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, 'latest'] }),
    });
    const { result } = await proxied.json();
    if (result && BigInt(result) >= parseEther(amount)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`latchd's RPC proxy never saw ${amount} ETH at ${address}`);
}

test("a script on the dapp page that answers every approval message it can build gets no signature; the frame refuses the page's RPC_APPROVE", async () => {
  const { page } = await signedIn();
  // The hostile script: it hears every message, and for every request the frame shows it posts to the frame
  // every approve-shaped message it can make (the removed RPC_APPROVE with the request's id or its own, other
  // names and shapes, the frame's own answer types), tries the frame's document, and clicks and types at it.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.heard = [];
    w.tries = 0;
    w.documentError = '';
    addEventListener('message', (e) => {
      w.heard.push(e.data);
      const d = e.data;
      if (d?.type !== '@latch-frame/RPC_APPROVAL_REQUIRED') return;
      const iframe = /** @type {HTMLIFrameElement} */ (document.getElementById('latch-frame'));
      const target = /** @type {Window} */ (iframe.contentWindow);
      const requestId = d.payload.requestId;
      const ids = [requestId, 'x1', d.id];
      const payloads = [{ requestId, approved: true }, { requestId, approved: 'true' }, { approved: true }, { requestId }, true, undefined];
      const types = ['RPC_APPROVE', 'APPROVE', 'RPC_APPROVED', 'RPC_REQUEST_APPROVE', 'RPC_APPROVE_SUCCESS', 'RPC_REQUEST_SUCCESS', 'APPROVE_TRANSACTION'];
      const prefixes = ['@latch-app/', '@w3m-app/', '@latch-frame/', ''];
      for (let round = 0; round < 3; round++) {
        for (const prefix of prefixes)
          for (const type of types)
            for (const id of ids)
              for (const payload of payloads) {
                target.postMessage({ id, type: `${prefix}${type}`, payload }, '*');
                w.tries++;
              }
        target.postMessage('approve', '*');
        target.postMessage({ approve: requestId }, '*');
      }
      try {
        /** @type {any} */ (iframe.contentWindow).document.querySelector('[data-testid="latch-approve-approve"]').click();
      } catch (err) {
        w.documentError = String(err);
      }
      iframe.focus();
      for (const type of ['mousedown', 'mouseup', 'click']) iframe.dispatchEvent(new MouseEvent(type, { bubbles: true }));
      for (const key of ['Tab', 'Enter', ' ']) document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    });
  });

  await page.getByTestId('demo-sign-input').fill('the page approves nothing');
  await page.getByTestId('demo-sign-message').click();
  await page.waitForFunction(() => /** @type {any} */ (window).heard.some((/** @type {any} */ d) => d?.type === '@latch-frame/RPC_APPROVAL_REQUIRED'));
  // Well past the frame's arming delay: had any of those messages approved, the signature would be here.
  await new Promise((r) => setTimeout(r, 3000));
  const signatures = await page.getByTestId('demo-signature').count();
  const heard = await page.evaluate(() => /** @type {any} */ (window).heard);
  assert.equal(signatures, 0, "the page's own approval messages got a signature");
  assert.ok(!heard.some((/** @type {any} */ d) => d?.type === '@latch-frame/RPC_REQUEST_SUCCESS'), 'no RPC_REQUEST_SUCCESS reached the page');
  assert.ok(await page.evaluate(() => /** @type {any} */ (window).tries) > 500);
  // The frame answers the removed RPC_APPROVE with an error, and the page learnt nothing of what is signed.
  const refusals = heard.filter((/** @type {any} */ d) => d?.type === '@latch-frame/RPC_APPROVE_ERROR');
  assert.ok(refusals.length > 0, 'the frame refused RPC_APPROVE');
  assert.equal(refusals[0].payload.message, 'Only the visitor approves, in the wallet frame');
  const approval = heard.find((/** @type {any} */ d) => d?.type === '@latch-frame/RPC_APPROVAL_REQUIRED');
  assert.deepEqual(Object.keys(approval.payload).sort(), ['chainId', 'chainNamespace', 'method', 'requestId']);
  assert.match(await page.evaluate(() => /** @type {any} */ (window).documentError), /cross-origin|Blocked a frame/i);

  // The request still waits for the visitor, who rejects it in the frame.
  const frame = await approvalShown(page);
  assert.equal(await frame.getByTestId('latch-approve-message').textContent(), 'the page approves nothing');
  await rejectInFrame(page);
  await page.getByTestId('demo-sign-error').waitFor();
  assert.match(/** @type {string} */ (await page.getByTestId('demo-sign-error').textContent()), /declined|rejected/i);
  assert.equal(await page.getByTestId('demo-signature').count(), 0);
});

test("a page that covers the frame with a transparent layer or fades it cannot get the click through; the visitor's click approves", async () => {
  const { page, address } = await signedIn();
  const message = 'clickjacking attempt';
  const signed = walletRequest(page, 'personal_sign', [`0x${Buffer.from(message).toString('hex')}`, address]);
  const frame = await approvalShown(page);
  const button = frame.getByTestId('latch-approve-approve');
  const card = frame.getByTestId('latch-approval');
  // An honest page: the frame arms (the visitor could approve now).
  await card.and(frame.locator('[data-armed="true"]')).waitFor();
  const box = await button.boundingBox();
  assert.ok(box, 'the Approve button is on screen');
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const stillWaiting = async (/** @type {string} */ what) => {
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await card.count(), 1, `${what}: the request is still shown`);
    assert.equal(await frame.getByTestId('latch-approve-working').count(), 0, `${what}: nothing is being signed`);
  };

  // 1. A transparent layer over everything that lets clicks through to the frame (pointer-events: none): the
  //    visitor sees the page's layer, the click lands in the frame, and the frame, seeing itself covered, refuses.
  await page.evaluate(() => {
    const layer = document.createElement('div');
    layer.id = 'hostile-layer';
    layer.style.cssText = 'position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:rgba(255,255,255,0.01)';
    document.body.appendChild(layer);
  });
  await card.and(frame.locator('[data-armed="false"]')).waitFor();
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await card.getAttribute('data-armed'), 'false', 'covered: not armed');
  await page.mouse.click(at.x, at.y);
  await stillWaiting('under a pass-through layer');

  // 2. The same layer catching clicks: the click never reaches the frame.
  await page.evaluate(() => (/** @type {HTMLElement} */ (document.getElementById('hostile-layer')).style.pointerEvents = 'auto'));
  await page.mouse.click(at.x, at.y);
  await stillWaiting('under a click-catching layer');

  // 3. No layer, but the frame faded to almost nothing: the visitor sees the page beneath and clicks there.
  await page.evaluate(() => {
    document.getElementById('hostile-layer')?.remove();
    /** @type {HTMLElement} */ (document.getElementById('latch-frame')).style.opacity = '0.1';
  });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await card.getAttribute('data-armed'), 'false', 'faded: not armed');
  await page.mouse.click(at.x, at.y);
  await stillWaiting('faded');

  // 4. Shown again as it should be: after the arming delay the visitor's click at the same spot approves.
  await page.evaluate(() => (/** @type {HTMLElement} */ (document.getElementById('latch-frame')).style.opacity = ''));
  await card.and(frame.locator('[data-armed="true"]')).waitFor();
  await page.mouse.click(at.x, at.y);
  const answer = await signed;
  assert.ok('result' in answer, JSON.stringify(answer));
  assert.equal(await recoverMessageAddress({ message, signature: /** @type {`0x${string}`} */ (answer.result) }), address);
});

test("the visitor's click in the frame approves personal_sign, typed data and an ETH send; each is what the key signed or the chain holds; the frame follows the widget's theme and language", async () => {
  const { page, address } = await signedIn();
  // personal_sign, through the demo's own button: the signature recovers to the account.
  await page.getByTestId('demo-sign-input').fill('approved in the frame');
  await page.getByTestId('demo-sign-message').click();
  const shown = await approvalShown(page);
  assert.equal(await shown.getByTestId('latch-approve-message').textContent(), 'approved in the frame');
  assert.equal(await shown.getByTestId('latch-approve-origin').textContent(), `Requested by ${new URL(harness.latchd.info.demoUrl).origin}`);
  await approveInFrame(page);
  await page.getByTestId('demo-signature').waitFor();
  const signature = /** @type {`0x${string}`} */ ((await page.getByTestId('demo-signature').textContent())?.trim());
  assert.equal(await recoverMessageAddress({ message: 'approved in the frame', signature }), address);

  // Typed data: the frame shows its domain and primary type; the signature recovers to the account.
  const typed = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Mail: [
        { name: 'to', type: 'address' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    message: { to: harness.latchd.info.accounts[2], contents: 'hello' },
  };
  const typedSigned = walletRequest(page, 'eth_signTypedData_v4', [address, JSON.stringify(typed)]);
  const typedShown = await approvalShown(page);
  assert.equal(await typedShown.getByTestId('latch-approve-typed').textContent(), 'Mail');
  assert.equal(await typedShown.getByTestId('latch-approve-domain').textContent(), 'Ether Mail v1');
  assert.equal(await typedShown.getByTestId('latch-approve-verifying-contract').textContent(), typed.domain.verifyingContract);
  await approveInFrame(page);
  const typedAnswer = await typedSigned;
  assert.ok('result' in typedAnswer, JSON.stringify(typedAnswer));
  const { EIP712Domain: _, ...types } = typed.types;
  assert.equal(await recoverTypedDataAddress({ domain: typed.domain, types, primaryType: 'Mail', message: typed.message, signature: /** @type {`0x${string}`} */ (typedAnswer.result) }), address);

  // 0.01 ETH to account #2: the frame shows recipient, amount and the fee cap; the transaction is on the chain.
  const { network, client } = await walletChain(page);
  await faucet(address, network);
  const receiver = /** @type {`0x${string}`} */ (harness.latchd.info.accounts[2]);
  const before = await client.getBalance({ address: receiver });
  const sent = walletRequest(page, 'eth_sendTransaction', [{ from: address, to: receiver, value: `0x${parseEther('0.01').toString(16)}` }]);
  const txShown = await approvalShown(page);
  assert.equal((await txShown.getByTestId('latch-approve-recipient').textContent())?.toLowerCase(), receiver.toLowerCase());
  assert.equal(await txShown.getByTestId('latch-approve-amount').textContent(), '0.01');
  assert.equal(await txShown.getByTestId('latch-approve-network').textContent(), network.chainId === 31337 ? 'Localhost 31337' : `Chain ${network.chainId}`);
  assert.match(/** @type {string} */ (await txShown.getByTestId('latch-approve-fee').textContent()), /^≤ [\d.]+ ETH$/);
  await approveInFrame(page);
  const txAnswer = await sent;
  assert.ok('result' in txAnswer, JSON.stringify(txAnswer));
  const receipt = await client.waitForTransactionReceipt({ hash: /** @type {`0x${string}`} */ (txAnswer.result), timeout: 30_000 });
  assert.equal(receipt.status, 'success');
  assert.equal(receipt.from.toLowerCase(), address.toLowerCase());
  assert.equal((await client.getBalance({ address: receiver })) - before, parseEther('0.01'));

  // The widget in dark mode and German: the frame follows (SYNC_THEME), with its own strings. An unlimited ERC-20
  // approval is called out before the visitor approves; the visitor rejects it.
  await page.getByTestId('demo-toggle-theme').click();
  await page.evaluate(() => /** @type {any} */ (window).latch.setLocale('de'));
  const spender = /** @type {string} */ (harness.latchd.info.accounts[3]);
  const approveData = `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`;
  const unlimited = walletRequest(page, 'eth_sendTransaction', [{ from: address, to: typed.domain.verifyingContract, data: approveData }]);
  const unlimitedShown = await approvalShown(page);
  assert.match(/** @type {string} */ (await unlimitedShown.getByTestId('latch-approve-warning').textContent()), new RegExp(`^Unbegrenzte Freigabe: ${spender}`, 'i'));
  assert.equal(await unlimitedShown.getByTestId('latch-approve-approve').textContent(), 'Bestätigen');
  assert.equal(await unlimitedShown.getByTestId('latch-approve-allowance').textContent(), '∞');
  assert.equal(await unlimitedShown.locator('html').getAttribute('lang'), 'de');
  assert.match(/** @type {string} */ (await unlimitedShown.locator('html').getAttribute('style')), /color-scheme: dark/);
  // The frame's own stylesheet is in force under its CSP (default-src 'none'): the page's dark mode, the frame's colours.
  assert.equal(await unlimitedShown.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(25, 26, 26)');
  await rejectInFrame(page);
  assert.equal((await unlimited).code, 4001);
});

test("a smart account's user operation and a Solana transfer: shown decoded in the frame, approved there, on their chains", async () => {
  const { page } = await signedIn({ smart: true });
  const account = /** @type {`0x${string}`} */ (JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent())).address);
  const { network, client } = await walletChain(page);
  await faucet(account, network, '0.05');
  const receiver = /** @type {`0x${string}`} */ (harness.latchd.info.accounts[4]);
  const before = await client.getBalance({ address: receiver });
  const sent = walletRequest(page, 'eth_sendTransaction', [{ from: account, to: receiver, value: `0x${parseEther('0.01').toString(16)}` }]);
  const op = await approvalShown(page);
  assert.equal(await op.getByTestId('latch-approve-title').textContent(), 'Send this transaction from your smart account?');
  assert.equal((await op.getByTestId('latch-approve-from').textContent())?.toLowerCase(), account.toLowerCase());
  assert.equal((await op.getByTestId('latch-approve-calls').textContent())?.toLowerCase(), `0.01 eth → ${receiver.toLowerCase()}`);
  await approveInFrame(page);
  const answer = await sent;
  assert.ok('result' in answer, JSON.stringify(answer));
  for (let i = 0; i < 200 && (await client.getBalance({ address: receiver })) === before; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal((await client.getBalance({ address: receiver })) - before, parseEther('0.01'));

  // The Solana key (a Wallet Standard wallet): 0.1 SOL to dev account #2, decoded as a System transfer.
  const solanaNet = harness.latchd.info.solana;
  assert.ok(solanaNet, 'latchd dev runs the Solana dev network');
  /** @param {string} method @param {unknown[]} params */
  const sol = async (method, params) => {
    const res = await (await fetch(solanaNet.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
    if (res.error) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
    return res.result;
  };
  const owner = await page.evaluate(() => {
    /** @type {any[]} */
    const found = [];
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (/** @type {any} */ w) => (found.push(w), () => undefined) } }));
    /** @type {any} */ (window).solanaWallet = found[0];
    return found[0].accounts[0].address;
  });
  const solReceiver = solanaNet.accounts[2];
  await sol('requestAirdrop', [owner, 1_000_000_000]);
  for (let i = 0; i < 100 && (await sol('getBalance', [owner])).value < 1_000_000_000; i++) await new Promise((r) => setTimeout(r, 100));
  const receiverBefore = (await sol('getBalance', [solReceiver])).value;
  const { blockhash } = (await sol('getLatestBlockhash', [])).value;
  const lamports = Buffer.alloc(8);
  lamports.writeBigUInt64LE(100_000_000n);
  const transfer = Buffer.concat([
    Buffer.from([1, 0, 1]),
    Buffer.from([3]), Buffer.from(base58.decode(owner)), Buffer.from(base58.decode(solReceiver)), Buffer.alloc(32),
    Buffer.from(base58.decode(blockhash)),
    Buffer.from([1, 2, 2, 0, 1, 12]), Buffer.from([2, 0, 0, 0]), lamports,
  ]);
  const solSent = page.evaluate(async ({ bytes, chain }) => {
    const w = /** @type {any} */ (window).solanaWallet;
    const [out] = await w.features['solana:signAndSendTransaction'].signAndSendTransaction({ account: w.accounts[0], transaction: Uint8Array.from(bytes), chain });
    return Array.from(/** @type {Uint8Array} */ (out.signature));
  }, { bytes: Array.from(Buffer.concat([Buffer.from([1]), Buffer.alloc(64), transfer])), chain: solanaNet.caipNetworkId });
  const solShown = await approvalShown(page);
  assert.equal(await solShown.getByTestId('latch-approve-instructions').textContent(), `System: transfer 0.1 SOL ${owner} → ${solReceiver}`);
  await approveInFrame(page);
  const signature = base58.encode(Uint8Array.from(await solSent));
  let status;
  for (let i = 0; i < 100 && !status; i++) {
    status = (await sol('getSignatureStatuses', [[signature]])).value[0];
    if (!status) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(status && status.err === null, `the transfer landed: ${JSON.stringify(status)}`);
  assert.equal((await sol('getBalance', [solReceiver])).value, receiverBefore + 100_000_000);
  assert.equal(await walletFrame(page).getByTestId('latch-approval').count(), 0);
});
