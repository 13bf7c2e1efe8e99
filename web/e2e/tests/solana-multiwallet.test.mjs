// Multi-wallet for Solana end to end: two Wallet Standard Solana wallets on the demo page (served by a real
// `latchd dev` with its local Solana network), both connected, listed in the ProfileWallets view (reached from
// Account), the active one switched without a prompt, both kept across a reload, then disconnected one by one.
// The wallets only connect here (sending is solana.test.mjs's); Node keeps whether each authorized the site, so a
// reload reconnects silently. Build the web packages and latchd's dev build first.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useHarness } from '../lib/harness.mjs';
import { devAccounts, TEST_MNEMONIC } from '../../packages/solana-devnet/src/keys.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const [key0, key1] = devAccounts(TEST_MNEMONIC, 2);

/**
 * Injects (before page.goto) a Wallet Standard Solana wallet named `name` sharing `address`. The page asks Node,
 * through a binding of its own, whether the site is authorized; the returned log holds each connect (silent or not)
 * and each disconnect.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {string} address
 * @param {string} binding
 */
async function installSolanaWallet(page, name, address, binding) {
  const state = { authorized: false, calls: /** @type {string[]} */ ([]) };
  await page.exposeBinding(binding, async (_source, /** @type {{method: string, silent?: boolean}} */ { method, silent }) => {
    if (method === 'connect') {
      state.calls.push(silent ? 'silent connect' : 'connect');
      if (!silent) state.authorized = true;
      return state.authorized;
    }
    state.calls.push('disconnect');
    state.authorized = false;
    return null;
  });
  const info = /** @type {any} */ (harness.latchd.info).solana;
  assert.ok(info, 'latchd dev runs its Solana network (GET /dev/info has solana)');
  await page.addInitScript(
    (/** @type {any} */ cfg) => {
      const call = (/** @type {any} */ message) => /** @type {any} */ (window)[cfg.binding](message);
      const account = Object.freeze({ address: cfg.address, publicKey: new Uint8Array(32), chains: cfg.chains, features: ['solana:signAndSendTransaction'] });
      /** @type {any[]} */
      let accounts = [];
      const listeners = new Set();
      const changed = () => listeners.forEach((/** @type {any} */ l) => l({ accounts }));
      const wallet = {
        version: '1.0.0',
        name: cfg.name,
        icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
        chains: cfg.chains,
        get accounts() {
          return accounts;
        },
        features: {
          'standard:connect': {
            version: '1.0.0',
            connect: async (/** @type {any} */ input) => {
              accounts = (await call({ method: 'connect', silent: Boolean(input?.silent) })) ? [account] : [];
              changed();
              return { accounts };
            },
          },
          'standard:disconnect': { version: '1.0.0', disconnect: async () => ((accounts = []), changed(), call({ method: 'disconnect' })) },
          'standard:events': {
            version: '1.0.0',
            on: (/** @type {string} */ event, /** @type {any} */ listener) => (event === 'change' ? (listeners.add(listener), () => listeners.delete(listener)) : () => {}),
          },
          'solana:signAndSendTransaction': { version: '1.0.0', supportedTransactionVersions: ['legacy', 0], signAndSendTransaction: async () => [] },
        },
      };
      const register = (/** @type {any} */ api) => api.register(wallet);
      window.addEventListener('wallet-standard:app-ready', (e) => register(/** @type {CustomEvent} */ (e).detail));
      window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
    },
    { name, address, binding, chains: ['solana:mainnet', 'solana:devnet', info.caipNetworkId] },
  );
  return state;
}

/** @param {string} address */
const short = (address) => `${address.slice(0, 4)}…${address.slice(-6)}`;

test('two Solana wallets connected: both in ProfileWallets, switch the active one, both kept across a reload, disconnect one by one', async () => {
  // No EVM wallet on the page: the account is the Solana one throughout.
  const testPage = await harness.newPage({ wallet: false });
  const { page } = testPage;
  const a = await installSolanaWallet(page, 'Solana Wallet A', key0.address, '__latchSolanaWalletA');
  const b = await installSolanaWallet(page, 'Solana Wallet B', key1.address, '__latchSolanaWalletB');
  await page.goto(harness.latchd.info.demoUrl);

  // Wallet A, as any visitor connects.
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Solana Wallet A/ }).click();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').and(page.locator(`[title="${key0.address}"]`)).waitFor();

  // Account → ProfileWallets → Add wallet → Connect: wallet B, A kept.
  await page.getByTestId('latch-account-wallets').click();
  const profile = page.getByTestId('latch-view-ProfileWallets');
  const rowA = profile.getByTestId('latch-profile-wallet-solana:Solana Wallet A');
  const rowB = profile.getByTestId('latch-profile-wallet-solana:Solana Wallet B');
  await rowA.getByTestId('latch-profile-wallet-active').waitFor();
  await profile.getByRole('button', { name: 'Add wallet' }).click();
  await page.getByTestId('latch-view-Connect').getByRole('button', { name: /Solana Wallet B/ }).click();

  // B is the active one and drives the account; both are listed with their addresses.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').and(page.locator(`[title="${key1.address}"]`)).waitFor();
  assert.equal(await page.getByTestId('latch-account-wallets').textContent(), '2 wallets connected');
  await page.getByTestId('latch-account-wallets').click();
  await rowB.getByTestId('latch-profile-wallet-active').waitFor();
  assert.equal(await rowA.getByTestId('latch-profile-wallet-active').count(), 0);
  assert.equal(await rowA.getByTestId('latch-profile-wallet-address').textContent(), short(key0.address));
  assert.equal(await rowB.getByTestId('latch-profile-wallet-address').textContent(), short(key1.address));
  assert.deepEqual([a.calls, b.calls], [['connect'], ['connect']]);
  await testPage.screenshot('solana-profile-wallets');

  // Switch to A: no prompt, A drives the account again.
  await rowA.getByRole('button', { name: 'Switch to Solana Wallet A' }).click();
  await rowA.getByTestId('latch-profile-wallet-active').waitFor();
  assert.equal(await rowB.getByTestId('latch-profile-wallet-active').count(), 0);
  assert.deepEqual([a.calls, b.calls], [['connect'], ['connect']], 'switching prompted a wallet');
  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), key0.address);

  // Reload: both come back silently, A still active.
  await page.reload();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-account-address').and(page.locator(`[title="${key0.address}"]`)).waitFor();
  await page.getByTestId('latch-account-wallets').click();
  await rowA.getByTestId('latch-profile-wallet-active').waitFor();
  await rowB.waitFor();
  assert.deepEqual([a.calls, b.calls], [['connect', 'silent connect'], ['connect', 'silent connect']]);

  // Disconnect A (the active one): B stays connected and becomes active.
  await rowA.getByRole('button', { name: 'Disconnect Solana Wallet A' }).click();
  await rowA.waitFor({ state: 'detached' });
  await rowB.getByTestId('latch-profile-wallet-active').waitFor();
  assert.equal(a.calls.at(-1), 'disconnect');
  assert.equal(b.calls.at(-1), 'silent connect');
  await page.getByTestId('latch-modal-back').click();
  await page.getByTestId('latch-view-Account').waitFor();
  assert.equal(await page.getByTestId('latch-account-address').getAttribute('title'), key1.address);
  assert.equal(await page.getByTestId('latch-account-wallets').textContent(), '1 wallet connected');

  // Disconnect B, the last one: the namespace is disconnected and the modal closes.
  await page.getByTestId('latch-account-wallets').click();
  await rowB.getByRole('button', { name: 'Disconnect Solana Wallet B' }).click();
  await page.getByTestId('latch-connect-button').waitFor();
  assert.equal(b.calls.at(-1), 'disconnect');
  assert.equal(await page.getByTestId('latch-view-ProfileWallets').count(), 0);

  // Nothing is remembered: a reload stays disconnected and asks no wallet.
  await page.reload();
  await page.getByTestId('latch-connect-button').waitFor();
  assert.deepEqual([a.calls.length, b.calls.length], [3, 3]);
});
