// Network switching end to end (spec §2 UnsupportedChain, §4 switching): the
// demo dapp served by a real `latchd dev` (its networks are the dev chains
// 31337 and 31338), the scripted test wallet, Chromium. Build the web packages
// first (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';
import { walletRequest } from '../wallet/wallet.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;
const devB = 31338;

/** @type {Promise<void> | undefined} */
let funded;
/**
 * Account #0 starts with 10000 ETH on every dev chain; 5 more on 31338 make the
 * balance shown tell which chain it was read from. Once per file (per latchd).
 */
function fundDevB() {
  funded ??= (async () => {
    const res = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: harness.latchd.info.accounts[0], caipNetworkId: `eip155:${devB}`, amount: '5' }),
    });
    assert.equal(res.status, 200, `faucet: ${await res.text()}`);
  })();
  return funded;
}

/** Opens the demo with the test wallet installed and waits for the connect button. */
async function openDemo(pageOptions) {
  await fundDevB();
  const testPage = await harness.newPage(pageOptions);
  await testPage.page.goto(harness.latchd.info.demoUrl);
  await testPage.page.getByTestId('latch-connect-button').waitFor();
  return testPage;
}

/** Connects the test wallet and waits for the account button. */
async function connect(page) {
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await page.getByTestId('latch-account-button').first().waitFor();
}


const walletChainId = async (page) => Number(await walletRequest(page, { method: 'eth_chainId' }));

/** Opens Account from the account button and waits for the balance. */
async function openAccount(page, balance) {
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: balance }).waitFor();
}

const balanceOnA = /^10,000\.000 ETH$/;
const balanceOnB = /^10,005\.000 ETH$/;

test('switch: 31337 → 31338 and back from the Account view; wallet chain and balance follow', async () => {
  const t = await openDemo();
  const { page, wallet } = t;
  await connect(page);
  await openAccount(page, balanceOnA);

  await page.getByTestId('latch-account-network').click();
  const list = page.getByTestId('latch-view-Networks');
  await list.waitFor();
  await list.getByTestId(`latch-network-${devA}`).and(page.locator('[aria-current="true"]')).waitFor();
  await t.screenshot('networks-light');
  await list.getByTestId(`latch-network-${devB}`).click();

  // Success goes back to Account, now on 31338.
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: balanceOnB }).waitFor();
  assert.equal(await walletChainId(page), devB);
  assert.ok(wallet.prompts.some((p) => p.method === 'wallet_switchEthereumChain' && p.decision === 'approved'));
  const devBName = harness.latchd.info.networks.find((n) => n.chainId === devB).name;
  await page.getByTestId('latch-network-button').filter({ hasText: devBName }).waitFor();

  await page.getByTestId('latch-account-network').click();
  await page.getByTestId(`latch-network-${devA}`).click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: balanceOnA }).waitFor();
  assert.equal(await walletChainId(page), devA);
});

test('switch declined: back one view with a toast, wallet and widget stay on 31337', async () => {
  const { page, wallet } = await openDemo();
  await connect(page);
  await openAccount(page, balanceOnA);
  await page.getByTestId('latch-account-network').click();
  await page.getByTestId('latch-view-Networks').waitFor();
  wallet.rejectNext('wallet_switchEthereumChain');
  await page.getByTestId(`latch-network-${devB}`).click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByText('Switch declined').waitFor();
  assert.equal(await walletChainId(page), devA);
  await page.getByTestId('latch-account-balance').filter({ hasText: balanceOnA }).waitFor();
});

test('4902: a wallet that does not know 31338 is asked to add it with the network data, then is on it', async () => {
  const { page, wallet } = await openDemo();
  wallet.chains.delete(devB);
  await connect(page);
  await page.getByTestId('latch-network-button').click();
  await page.getByTestId('latch-view-Networks').waitFor();
  await page.getByTestId(`latch-network-${devB}`).click();
  // Networks was the first view: a successful switch closes the modal.
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  assert.equal(await walletChainId(page), devB);
  const add = wallet.prompts.find((p) => p.method === 'wallet_addEthereumChain');
  assert.ok(add, `no wallet_addEthereumChain prompt: ${JSON.stringify(wallet.prompts.map((p) => p.method))}`);
  const devBInfo = harness.latchd.info.networks.find((n) => n.chainId === devB);
  assert.equal(add.params[0].chainId, '0x7a6a');
  assert.equal(add.params[0].chainName, devBInfo.name);
  assert.deepEqual(add.params[0].rpcUrls, [devBInfo.rpcUrl]);
  assert.deepEqual(add.params[0].nativeCurrency, { name: 'Ether', symbol: 'ETH', decimals: 18 });
  await openAccount(page, balanceOnB);
});

test('not connected: picking a network switches locally, survives a reload, and the wallet connects on it', async () => {
  const { page, wallet } = await openDemo();
  await page.getByTestId('latch-network-button').click();
  await page.getByTestId(`latch-network-${devB}`).click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  const devBName = harness.latchd.info.networks.find((n) => n.chainId === devB).name;
  await page.getByTestId('latch-network-button').filter({ hasText: devBName }).waitFor();
  assert.ok(!wallet.calls.includes('wallet_switchEthereumChain'), 'no wallet is connected: nothing to ask');
  await page.reload();
  await page.getByTestId('latch-network-button').filter({ hasText: devBName }).waitFor();

  // Connecting then asks the wallet (on 31337) for the picked network.
  await connect(page);
  assert.equal(await walletChainId(page), devB);
  assert.ok(wallet.prompts.some((p) => p.method === 'wallet_switchEthereumChain' && p.decision === 'approved'));
  await openAccount(page, balanceOnB);
});

test('UnsupportedChain: the wallet moving to a chain the page does not list opens it; switching back closes it', async () => {
  const t = await openDemo();
  const { page } = t;
  await connect(page);
  const devAInfo = harness.latchd.info.networks.find((n) => n.chainId === devA);
  // Chain 1337 is not among the demo's networks; the wallet adds it and switches to it (as MetaMask does).
  await walletRequest(page, {
    method: 'wallet_addEthereumChain',
    params: [{ chainId: '0x539', chainName: 'Elsewhere', rpcUrls: [devAInfo.rpcUrl], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }],
  });
  const view = page.getByTestId('latch-view-UnsupportedChain');
  await view.waitFor();
  await page.getByTestId('latch-unsupported-chain-message').filter({ hasText: 'This app doesn’t support your current network' }).waitFor();
  await t.screenshot('unsupported-chain-light');
  assert.equal(await walletChainId(page), 1337);

  await view.getByTestId(`latch-network-${devA}`).click();
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });
  assert.equal(await walletChainId(page), devA);
  await openAccount(page, balanceOnA);
});
