// @latchkit/appkit-compat end to end: the AppKit-style demo (web/apps/appkit-demo, built; it imports only
// @latchkit/appkit-compat) served by a real `latchd dev` (dev chains 31337 and 31338), the scripted test
// wallet, Chromium. The page connects through <AppKitButton>, reads the account with useAppKitAccount,
// switches network with useAppKitNetwork().switchNetwork and disconnects with useDisconnect; with a second wallet
// connected it lists both (useAppKitConnections), switches the active one (useAppKitConnection) and disconnects one
// (useDisconnect().disconnect({ id })). Build the web packages first (scripts/build-web.sh).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';
import { installSecondTestWallet, secondTestWallet, walletRequest } from '../wallet/wallet.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/appkit-demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`appkit-demo not built: ${demoDir} (scripts/build-web.sh)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const devA = 31337;
const devB = 31338;

const firstId = 'dev.latch.testwallet';
const { rdns: secondId, name: secondName } = secondTestWallet;

/** The JSON a demo <pre> shows. */
async function readJson(page, testId) {
  return JSON.parse(await page.getByTestId(testId).textContent());
}

/** Waits until the <pre> with testId shows JSON matching every key of expected. */
async function waitForJson(page, testId, expected) {
  await page.waitForFunction(
    ({ testId, expected }) => {
      const text = document.querySelector(`[data-testid="${testId}"]`)?.textContent;
      if (!text) return false;
      const value = JSON.parse(text);
      return Object.entries(expected).every(([k, v]) => JSON.stringify(value[k]) === JSON.stringify(v));
    },
    { testId, expected },
  );
}


test('an AppKit app on Latch: connect, account, network switch, disconnect', async () => {
  const t = await harness.newPage();
  const { page, wallet } = t;
  await page.goto(harness.latchd.info.demoUrl);

  // <AppKitButton /> renders Latch's connect button in its place; the hooks show the disconnected state.
  const button = page.locator('[data-appkit="AppKitButton"]').getByTestId('latch-connect-button');
  await button.waitFor();
  assert.deepEqual(await readJson(page, 'appkit-account'), { status: 'disconnected', isConnected: false, address: null, caipAddress: null, wallet: null });
  await waitForJson(page, 'appkit-network', { chainId: devA, caipNetworkId: `eip155:${devA}` });
  // The --w3m-accent the app passed to createAppKit reaches Latch's theme.
  assert.equal(await button.evaluate((el) => getComputedStyle(el).getPropertyValue('--latch-accent').trim()), '#1f6feb');

  // Connect through the button and the Connect view.
  await button.click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).click();
  await waitForJson(page, 'appkit-account', {
    status: 'connected',
    isConnected: true,
    address: wallet.address,
    caipAddress: `eip155:${devA}:${wallet.address}`,
    wallet: 'Latch Test Wallet',
  });
  await page.locator('[data-appkit="AppKitButton"]').getByTestId('latch-account-button').waitFor();
  await t.screenshot('appkit-compat-connected');
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });

  // useAppKitBalance().fetchBalance() reads the native balance from the chain.
  await page.getByTestId('appkit-fetch-balance').click();
  await page.getByTestId('appkit-balance').filter({ hasText: /^10000 ETH$/ }).waitFor();

  // useAppKitNetwork().switchNetwork: the wallet is asked, the hooks and the network button follow.
  await page.getByTestId(`appkit-switch-${devB}`).click();
  await waitForJson(page, 'appkit-network', { chainId: devB, caipNetworkId: `eip155:${devB}` });
  await waitForJson(page, 'appkit-account', { caipAddress: `eip155:${devB}:${wallet.address}` });
  assert.equal(Number(await walletRequest(page, { method: 'eth_chainId' })), devB);
  assert.ok(wallet.calls.includes('wallet_switchEthereumChain'), 'the wallet was not asked to switch');
  const { name } = await readJson(page, 'appkit-network');
  await page.locator('[data-appkit="AppKitNetworkButton"]').getByTestId('latch-network-button').filter({ hasText: name }).waitFor();

  // useDisconnect().disconnect(): back to the connect button.
  await page.getByTestId('appkit-disconnect').click();
  await waitForJson(page, 'appkit-account', { status: 'disconnected', isConnected: false, address: null });
  await button.waitFor();
  assert.equal(await page.getByTestId('appkit-error').count(), 0);
});

test('two wallets: useAppKitConnections lists both, useAppKitConnection switches, disconnect({ id }) ends one', async () => {
  const { page, wallet: first } = await harness.newPage();
  const second = await installSecondTestWallet(page, harness.latchd.info);
  await page.goto(harness.latchd.info.demoUrl);
  await waitForJson(page, 'appkit-connections', { allAccounts: [], connections: [] });

  // The first wallet through <AppKitButton>, the second through Account → ProfileWallets → Add wallet.
  await page.locator('[data-appkit="AppKitButton"]').getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Latch Test Wallet/ }).click();
  await waitForJson(page, 'appkit-account', { address: first.address });
  await page.locator('[data-appkit="AppKitButton"]').getByTestId('latch-account-button').click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-wallets').click();
  await page.getByTestId('latch-view-ProfileWallets').getByRole('button', { name: 'Add wallet' }).click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: new RegExp(secondName) }).click();
  await waitForJson(page, 'appkit-account', { address: second.address });
  await page.keyboard.press('Escape');
  await page.getByTestId('latch-modal').waitFor({ state: 'detached' });

  // Both listed, the new one active and first; allAccounts holds both wallets' accounts.
  const connection = (connectorId, name, address, active) => ({ connectorId, name, accounts: [address], active });
  await waitForJson(page, 'appkit-connections', {
    allAccounts: [second.address, first.address],
    connections: [connection(secondId, secondName, second.address, true), connection(firstId, 'Latch Test Wallet', first.address, false)],
  });

  // switchConnection: the first wallet is active again, without a prompt.
  const promptsBefore = first.prompts.length + second.prompts.length;
  await page.getByTestId(`appkit-use-${firstId}`).click();
  await waitForJson(page, 'appkit-account', { address: first.address, caipAddress: `eip155:${devA}:${first.address}` });
  await waitForJson(page, 'appkit-connections', {
    connections: [connection(firstId, 'Latch Test Wallet', first.address, true), connection(secondId, secondName, second.address, false)],
  });
  assert.equal(first.prompts.length + second.prompts.length, promptsBefore, 'switching prompted a wallet');

  // disconnect({ id }): the second wallet only; the first stays connected and active.
  await page.getByTestId(`appkit-disconnect-${secondId}`).click();
  await waitForJson(page, 'appkit-connections', { allAccounts: [first.address], connections: [connection(firstId, 'Latch Test Wallet', first.address, true)] });
  await waitForJson(page, 'appkit-account', { status: 'connected', address: first.address });
  assert.equal(await page.getByTestId('appkit-error').count(), 0);
});

test('useAppKit().open({ view }) opens that view', async () => {
  const { page } = await harness.newPage();
  await page.goto(harness.latchd.info.demoUrl);
  await page.locator('[data-appkit="AppKitButton"]').getByTestId('latch-connect-button').waitFor();
  await page.getByTestId('demo-open-networks').click();
  await page.getByTestId('latch-view-Networks').waitFor();
  await waitForJson(page, 'appkit-network', { modalOpen: true });
});
