// Sponsorship of signed-in wallets only (issue 33): `latchd dev
// --sponsor-require-session`. The e-mail wallet's smart account sends 0.01
// ETH: the frame passes its Latch session and the owner's proof in the
// paymaster's ERC-7677 context, latchd checks them and sponsors; the same
// request without them is refused. Build the web packages (the frame
// included) and then bin/latchd-dev first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPublicClient, formatEther, http, parseAbi } from 'viem';
import { approvalShown, approveInFrame } from '../lib/approval.mjs';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0', '--sponsor-require-session'] });
const email = `sponsored-${Date.now()}@example.com`;
const { login } = emailLogin(harness, email);

/** @typedef {`0x${string}`} Hex */

test('signed-in sponsorship: the frame proves its session, latchd sponsors its smart account; without the session it refuses', async () => {
  const testPage = await harness.newPage({ wallet: false });
  const { page } = testPage;
  testPage.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  const info = harness.latchd.info;
  await page.goto(/** @type {string} */ (info.demoUrl));
  await page.getByTestId('latch-connect-button').waitFor();
  const account = /** @type {Hex} */ (await login(page));
  const network = /** @type {any} */ (info.networks.find((/** @type {any} */ n) => n.chainId === 31337));
  const client = createPublicClient({ transport: http(network.rpcUrl) });
  assert.equal(await client.getCode({ address: account }), undefined, 'the smart account, not deployed yet');

  // Without a session in the context, latchd's paymaster refuses this project's operations.
  const rpc = `${harness.latchd.apiUrl}/v1?chainId=${network.caipNetworkId}&projectId=${info.projectId}`;
  const stub = await (
    await fetch(rpc, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterStubData', params: [{ sender: account, nonce: '0x0', callData: '0x' }, network.entryPoint, '0x7a69', {}] }),
    })
  ).json();
  assert.equal(stub.error?.code, -32501, JSON.stringify(stub));
  assert.match(stub.error.message, /signed-in Latch wallet/);

  const fund = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ address: account, caipNetworkId: network.caipNetworkId, amount: '0.05' }),
  });
  assert.equal(fund.status, 200, await fund.text());
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${harness.latchd.apiUrl}/v1/account/${account}/balance?projectId=${info.projectId}&chainId=${network.caipNetworkId}`, {
      headers: { Origin: /** @type {string} */ (info.demoUrl).replace(/\/$/, '') },
    });
    if ((await res.json()).balances?.some((/** @type {{symbol: string}} */ b) => b.symbol === 'ETH')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.reload();
  await page.waitForFunction((want) => JSON.parse(document.querySelector('[data-testid="demo-account"]')?.textContent ?? '{}').address === want, account);

  // The widget's Send: sponsored ("Paid by the app"), so the stub with the session passed.
  const receiver = /** @type {Hex} */ (info.accounts[3]);
  const before = await client.getBalance({ address: receiver });
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
  assert.equal(await approve.getByTestId('latch-approve-fee').textContent(), 'Paid by the app');
  await approveInFrame(page);

  // Included, paid by the paymaster: pm_getPaymasterData accepted the session's proof.
  for (let i = 0; i < 300 && (await client.getBalance({ address: receiver })) === before; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(formatEther((await client.getBalance({ address: receiver })) - before), '0.01');
  const events = await client.getContractEvents({
    address: network.entryPoint,
    abi: parseAbi(['event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)']),
    eventName: 'UserOperationEvent',
    args: { sender: account },
    fromBlock: 0n,
  });
  assert.equal(events.length, 1);
  assert.equal(events[0]?.args.success, true);
  assert.equal(events[0]?.args.paymaster?.toLowerCase(), network.verifyingPaymaster.toLowerCase());
  assert.equal(formatEther(await client.getBalance({ address: account })), '0.04', 'the paymaster paid the gas');
});
