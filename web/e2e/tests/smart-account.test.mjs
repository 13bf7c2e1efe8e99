// The e-mail wallet's smart account end to end (issue 17): the demo dapp on a
// real `latchd dev`, whose bundler and paymaster run on the dev chains. The
// visitor switches the Account view to the smart account (the factory's
// counterfactual address, not yet deployed), signs a message that verifies
// through ERC-6492 on the dev chain, sends 0.01 ETH as a user operation the
// paymaster sponsors (the account is deployed by it, the owner EOA pays
// nothing), and switches to the EOA and back. Build the web packages (the
// frame included) and bin/latchd-dev first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, formatEther, hashMessage, http, isErc6492Signature, parseAbi, parseEther } from 'viem';
import { approvalShown, approveInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });
const email = `smart-${Date.now()}@example.com`;
const { login } = emailLogin(harness, email);

/** @typedef {`0x${string}`} Hex */

/** The demo's connected account, as its <pre data-testid="demo-account"> shows it. */
async function demoAccount(/** @type {import('playwright-core').Page} */ page) {
  return JSON.parse(/** @type {string} */ (await page.getByTestId('demo-account').textContent()));
}

/** Polls latchd's account API (what the Send form lists) until the address holds ETH on the network. */
async function waitForListedEth(/** @type {string} */ address, /** @type {{chainId: number}} */ network) {
  for (let i = 0; i < 300; i++) {
    const url = `${harness.latchd.apiUrl}/v1/account/${address}/balance?projectId=${harness.latchd.info.projectId}&chainId=eip155:${network.chainId}`;
    const res = await fetch(url, { headers: { Origin: /** @type {string} */ (harness.latchd.info.demoUrl).replace(/\/$/, '') } });
    const { balances } = await res.json();
    if (balances?.some((/** @type {{symbol: string}} */ b) => b.symbol === 'ETH')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`latchd never listed ETH at ${address}`);
}

async function faucet(/** @type {string} */ address, /** @type {{caipNetworkId: string}} */ network, /** @type {string} */ amount) {
  const res = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address, caipNetworkId: network.caipNetworkId, amount }),
  });
  assert.equal(res.status, 200, await res.text());
}

test('e-mail login → smart account (counterfactual, not deployed) → ERC-6492 personal_sign → sponsored 0.01 ETH send deploys it, the EOA pays nothing → EOA and back', async () => {
  const testPage = await harness.newPage({ wallet: false });
  const { page } = testPage;
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  // The owner EOA's address: logged in once as an app with defaultAccountTypes { eip155: 'eoa' } would.
  await page.goto(`${harness.latchd.info.demoUrl}?accountType=eoa`);
  await page.getByTestId('latch-connect-button').waitFor();
  const owner = /** @type {Hex} */ (await login(page));
  // The same visitor on the demo with the default account type: the smart account.
  await page.goto(/** @type {string} */ (harness.latchd.info.demoUrl));

  const info = harness.latchd.info;
  const network = /** @type {any} */ (info.networks.find((/** @type {any} */ n) => n.chainId === 31337));
  assert.ok(network?.smartAccountFactory, 'the dev chain has the account factory');
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  const expected = await client.readContract({
    address: network.smartAccountFactory,
    abi: parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)']),
    functionName: 'getAddress',
    args: [owner, 0n],
  });

  // The owner EOA holds 1 ETH, which must not move: the paymaster pays the smart account's gas.
  await faucet(owner, network, '1');

  // Account view: the smart account by default (spec §3), not deployed yet, its address connected; no
  // preference is stored until the visitor picks one.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-type').filter({ hasText: 'Smart account' }).waitFor();
  await page.getByTestId('latch-account-not-deployed').waitFor();
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, expected);
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), expected);
  assert.equal(await client.getCode({ address: expected }), undefined, 'not deployed yet');
  assert.equal(await page.evaluate(() => localStorage.getItem('latch:preferredAccountTypes')), null);
  await page.getByTestId('latch-modal-close').click();

  // personal_sign from the undeployed account: ERC-6492 wrapped, and valid on the dev chain (viem's
  // verifyMessage runs the ERC-6492 validator) and in the demo's own check.
  const message = 'hello from a smart account';
  await page.getByTestId('demo-sign-input').fill(message);
  await page.getByTestId('demo-sign-message').click();
  assert.equal(await (await approvalShown(page)).getByTestId('latch-approve-message').textContent(), message);
  await approveInFrame(page);
  await page.getByTestId('demo-signature').waitFor();
  const signature = /** @type {Hex} */ ((await page.getByTestId('demo-signature').textContent())?.trim());
  assert.ok(isErc6492Signature(signature), 'an ERC-6492 signature');
  assert.equal(await client.verifyMessage({ address: expected, message, signature }), true);
  assert.equal(await client.verifyMessage({ address: expected, message: 'another message', signature }), false);
  assert.equal(await page.getByTestId('demo-signature-valid').textContent(), 'valid signature of the connected account');

  // 0.05 ETH for the account to send from; then 0.01 ETH to account #2 through the widget's Send form.
  await faucet(expected, network, '0.05');
  await waitForListedEth(expected, network);
  const receiver = /** @type {Hex} */ (info.accounts[2]);
  const [receiverBefore, ownerBefore, ownerNonce] = await Promise.all([
    client.getBalance({ address: receiver }),
    client.getBalance({ address: owner }),
    client.getTransactionCount({ address: owner }),
  ]);
  assert.equal(ownerBefore, parseEther('1'));
  // The page may hold balances read before the faucet (cached 30 s): a reload reads them afresh and keeps the login
  // and the smart account (the frame kept the preference).
  await page.reload();
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, expected);
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  const option = await page.locator('[data-testid="latch-send-token"] option', { hasText: /^ETH / }).first().textContent();
  await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (option) });
  await page.getByTestId('latch-send-amount').fill('0.01');
  await page.getByTestId('latch-send-receiver').fill(receiver);
  await page.getByTestId('latch-send-review').click();
  await page.getByTestId('latch-send-confirm').click();
  // The frame shows the user operation: its call, from the smart account, gas paid by the app.
  const approve = await approvalShown(page);
  assert.equal((await approve.getByTestId('latch-approve-recipient').textContent())?.toLowerCase(), receiver.toLowerCase());
  assert.equal(await approve.getByTestId('latch-approve-amount').textContent(), '0.01');
  assert.equal(await approve.getByTestId('latch-approve-fee').textContent(), 'Paid by the app');
  assert.equal((await approve.getByTestId('latch-approve-from').textContent())?.toLowerCase(), expected.toLowerCase());
  assert.equal((await approve.getByTestId('latch-approve-calls').textContent())?.toLowerCase(), `0.01 eth → ${receiver.toLowerCase()}`);
  await approveInFrame(page);

  // The hash the wallet answered is the bundle's transaction: a handleOps to the EntryPoint, mined, with the
  // account's UserOperationEvent (success, paid by the paymaster).
  await page.getByTestId('latch-view-WalletSend').waitFor({ state: 'detached', timeout: 60_000 }).catch(() => undefined);
  let deployed;
  for (let i = 0; i < 200 && !deployed; i++) {
    deployed = await client.getCode({ address: expected });
    if (!deployed) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(deployed, 'the first operation deployed the account');
  for (let i = 0; i < 100 && (await client.getBalance({ address: receiver })) === receiverBefore; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(formatEther((await client.getBalance({ address: receiver })) - receiverBefore), '0.01');
  const events = await client.getContractEvents({
    address: network.entryPoint,
    abi: parseAbi(['event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)']),
    eventName: 'UserOperationEvent',
    args: { sender: expected },
    fromBlock: 0n,
  });
  assert.equal(events.length, 1);
  assert.equal(events[0]?.args.success, true);
  assert.equal(events[0]?.args.paymaster?.toLowerCase(), network.verifyingPaymaster.toLowerCase());
  const bundle = await client.getTransaction({ hash: /** @type {Hex} */ (events[0]?.transactionHash) });
  assert.equal(bundle.to?.toLowerCase(), network.entryPoint.toLowerCase());
  // The account sent exactly 0.01 ETH (the paymaster paid its gas); the owner EOA sent nothing and paid nothing.
  assert.equal(formatEther(await client.getBalance({ address: expected })), '0.04');
  assert.equal(await client.getBalance({ address: owner }), ownerBefore);
  assert.equal(await client.getTransactionCount({ address: owner }), ownerNonce);

  // A new page load: the deployed account's signature is plain, valid through its ERC-1271 isValidSignature.
  await page.goto(/** @type {string} */ (harness.latchd.info.demoUrl));
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, expected);
  await page.getByTestId('demo-sign-input').fill(message);
  await page.getByTestId('demo-sign-message').click();
  await approveInFrame(page);
  await page.getByTestId('demo-signature').waitFor();
  const deployedSignature = /** @type {Hex} */ ((await page.getByTestId('demo-signature').textContent())?.trim());
  assert.equal(isErc6492Signature(deployedSignature), false);
  assert.equal(deployedSignature.length, 2 + 65 * 2);
  const magic = await client.readContract({
    address: expected,
    abi: parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']),
    functionName: 'isValidSignature',
    args: [hashMessage(message), deployedSignature],
  });
  assert.equal(magic, '0x1626ba7e');
  assert.equal(await page.getByTestId('demo-signature-valid').textContent(), 'valid signature of the connected account');

  // The Account view: smart account, deployed; switch to the EOA (its address connected) and back.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-type').filter({ hasText: 'Smart account' }).waitFor();
  assert.equal(await page.getByTestId('latch-account-not-deployed').count(), 0, 'deployed now');
  await page.getByTestId('latch-account-type-switch').click();
  await page.getByTestId('latch-account-type').filter({ hasText: 'EOA' }).waitFor();
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, owner);
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), owner);
  assert.deepEqual(JSON.parse(/** @type {string} */ (await page.evaluate(() => localStorage.getItem('latch:preferredAccountTypes')))), { eip155: 'eoa' });
  await page.getByTestId('latch-account-type-switch').click();
  await page.getByTestId('latch-account-type').filter({ hasText: 'Smart account' }).waitFor();
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, expected);
  assert.equal((await demoAccount(page)).status, 'connected');
});
