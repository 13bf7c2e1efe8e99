// Solana through the widget end to end (issue 20): the demo dapp served by a
// real `latchd dev` with its local Solana network (LiteSVM), Chromium, and a
// test wallet that has both sides: the EVM Latch Test Wallet (EIP-6963) and,
// under the same name, a Wallet Standard Solana wallet injected here that
// signs with the dev mnemonic's Solana account #0 (m/44'/501'/0'/0') in Node
// and sends to the dev network's own RPC. Balances are checked on the Solana
// network itself and in the widget. Build the web packages and latchd first
// (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { emailLogin } from '../lib/email.mjs';
import { useHarness } from '../lib/harness.mjs';
import { devAccounts, sign, TEST_MNEMONIC } from '../../packages/solana-devnet/src/keys.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const [key0] = devAccounts(TEST_MNEMONIC, 1);

/** The local Solana network of latchd dev, read directly (not through latchd). */
function solana() {
  const info = /** @type {any} */ (harness.latchd.info).solana;
  assert.ok(info, 'latchd dev runs its Solana network (GET /dev/info has solana)');
  const rpc = async (/** @type {string} */ method, /** @type {unknown[]} */ params) => {
    const res = await fetch(info.rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = await res.json();
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  return {
    info,
    rpc,
    sol: async (/** @type {string} */ address) => BigInt((await rpc('getBalance', [address, { commitment: 'confirmed' }])).value),
    usdc: async (/** @type {string} */ owner) => {
      const { value } = await rpc('getTokenAccountsByOwner', [owner, { mint: info.usdc.address }, { encoding: 'jsonParsed', commitment: 'confirmed' }]);
      return value.reduce((/** @type {bigint} */ sum, /** @type {any} */ a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n);
    },
  };
}

/**
 * Injects the Solana side of the test wallet (before page.goto): a Wallet
 * Standard wallet named like the EVM test wallet. The page calls into Node
 * through a binding; Node keeps whether the site is authorized (so a reload
 * reconnects silently), signs with dev key #0 and sends to the dev network.
 */
async function installSolanaWallet(/** @type {import('playwright-core').Page} */ page) {
  const net = solana();
  const state = { authorized: false, connects: /** @type {{silent: boolean}[]} */ ([]), sends: /** @type {{chain: string, options: any, signature: string}[]} */ ([]), messages: 0 };
  await page.exposeBinding('__latchSolanaWalletBridge', async (_source, /** @type {{method: string, params: any}} */ { method, params }) => {
    switch (method) {
      case 'connect':
        state.connects.push({ silent: params.silent });
        if (!params.silent) state.authorized = true;
        return state.authorized;
      case 'disconnect':
        state.authorized = false;
        return null;
      case 'signAndSend': {
        const tx = Buffer.from(params.transaction, 'base64');
        // Wire format: compact-u16 signature count (one byte below 128), the signatures, then the message.
        const count = tx[0];
        assert.ok(count > 0 && count < 128);
        const message = tx.subarray(1 + 64 * count);
        // v0 message: version byte 0x80, 3 header bytes, compact-u16 key count, keys; the fee payer is the first key.
        const payer = message.subarray(message[0] & 0x80 ? 5 : 4, (message[0] & 0x80 ? 5 : 4) + 32);
        assert.deepEqual(new Uint8Array(payer), key0.publicKey, 'the fee payer is the wallet account');
        const signature = sign(key0, message);
        Buffer.from(signature).copy(tx, 1);
        const sent = await net.rpc('sendTransaction', [tx.toString('base64'), { encoding: 'base64', ...params.options }]);
        state.sends.push({ chain: params.chain, options: params.options, signature: sent });
        return Array.from(signature);
      }
      case 'signMessage':
        state.messages++;
        return Array.from(sign(key0, Uint8Array.from(params.message)));
      default:
        throw new Error(`unknown method ${method}`);
    }
  });
  const chains = ['solana:mainnet', 'solana:devnet', net.info.caipNetworkId];
  await page.addInitScript(
    (/** @type {any} */ cfg) => {
      const call = (/** @type {string} */ method, /** @type {any} */ params) => /** @type {any} */ (window).__latchSolanaWalletBridge({ method, params });
      const b64 = (/** @type {Uint8Array} */ bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
      const features = ['solana:signAndSendTransaction', 'solana:signMessage'];
      const account = Object.freeze({ address: cfg.address, publicKey: new Uint8Array(cfg.publicKey), chains: cfg.chains, features });
      /** @type {any[]} */
      let accounts = [];
      const listeners = new Set();
      const changed = () => listeners.forEach((/** @type {any} */ l) => l({ accounts }));
      const wallet = {
        version: '1.0.0',
        name: cfg.name,
        icon: cfg.icon,
        chains: cfg.chains,
        get accounts() {
          return accounts;
        },
        features: {
          'standard:connect': {
            version: '1.0.0',
            connect: async (/** @type {any} */ input) => {
              const ok = await call('connect', { silent: Boolean(input?.silent) });
              accounts = ok ? [account] : [];
              changed();
              return { accounts };
            },
          },
          'standard:disconnect': { version: '1.0.0', disconnect: async () => ((accounts = []), changed(), call('disconnect', {})) },
          'standard:events': {
            version: '1.0.0',
            on: (/** @type {string} */ event, /** @type {any} */ listener) => (event === 'change' ? (listeners.add(listener), () => listeners.delete(listener)) : () => {}),
          },
          'solana:signAndSendTransaction': {
            version: '1.0.0',
            supportedTransactionVersions: ['legacy', 0],
            signAndSendTransaction: (/** @type {any[]} */ ...inputs) =>
              Promise.all(inputs.map(async (i) => ({ signature: new Uint8Array(await call('signAndSend', { transaction: b64(i.transaction), chain: i.chain, options: i.options ?? {} })) }))),
          },
          'solana:signMessage': {
            version: '1.0.0',
            signMessage: (/** @type {any[]} */ ...inputs) =>
              Promise.all(inputs.map(async (i) => ({ signedMessage: i.message, signature: new Uint8Array(await call('signMessage', { message: Array.from(i.message) })) }))),
          },
        },
      };
      const register = (/** @type {any} */ api) => api.register(wallet);
      window.addEventListener('wallet-standard:app-ready', (e) => register(/** @type {CustomEvent} */ (e).detail));
      window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
    },
    { name: 'Latch Test Wallet', icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=', address: key0.address, publicKey: Array.from(key0.publicKey), chains },
  );
  return state;
}

/** The Account view's network button, the Networks view, and a click on the network (by name, or an EVM chain id). */
async function switchTo(/** @type {import('playwright-core').Page} */ page, /** @type {string | number} */ network) {
  await page.getByTestId('latch-account-network').click();
  const list = page.getByTestId('latch-view-Networks');
  await list.waitFor();
  await (typeof network === 'number' ? list.getByTestId(`latch-network-${network}`) : list.getByRole('button', { name: new RegExp(network) })).click();
  await page.getByTestId('latch-view-Account').waitFor();
}

/** Opens Send and waits for the token picker to hold `symbol`. */
async function openSend(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ symbol) {
  await page.getByTestId('latch-account-send').click();
  await page.getByTestId('latch-view-WalletSend').waitFor();
  await page.locator('[data-testid="latch-send-token"] option', { hasText: new RegExp(`^${symbol} `) }).waitFor({ state: 'attached' });
}

async function send(/** @type {import('playwright-core').Page} */ page, /** @type {{token: string, amount: string, receiver: string}} */ form) {
  await openSend(page, form.token);
  const label = await page.locator('[data-testid="latch-send-token"] option', { hasText: new RegExp(`^${form.token} `) }).textContent();
  await page.getByTestId('latch-send-token').selectOption({ label: /** @type {string} */ (label) });
  await page.getByTestId('latch-send-amount').fill(form.amount);
  await page.getByTestId('latch-send-receiver').fill(form.receiver);
  await page.getByTestId('latch-send-review').click();
  const preview = page.getByTestId('latch-view-WalletSendPreview');
  await preview.waitFor();
  // The network fee is in SOL: 5000 lamports a signature (plus the receiver's token account rent when it has none).
  assert.match(/** @type {string} */ (await preview.getByTestId('latch-send-fee').textContent()), /^<?\d+\.\d+ SOL/);
  await preview.getByTestId('latch-send-confirm').click();
  await page.getByTestId('latch-toast').filter({ hasText: `Sent ${form.amount} ${form.token}` }).waitFor();
}

test('a wallet with both sides connects both; SOL and USDC balances, sends of 0.5 SOL and 2 USDC, Activity, reload, EVM ⇄ Solana switching', async () => {
  const net = solana();
  const receiver = net.info.accounts[2];
  const before = { sol0: await net.sol(key0.address), sol2: await net.sol(receiver), usdc0: await net.usdc(key0.address), usdc2: await net.usdc(receiver) };
  assert.equal(before.sol0, 1000n * 10n ** 9n, 'dev account #0 starts with 1000 SOL');
  assert.equal(before.usdc0, 10_000n * 10n ** 6n, 'and 10,000 USDC');

  const t = await harness.newPage();
  const { page } = t;
  const sol = await installSolanaWallet(page);
  await page.goto(harness.latchd.info.demoUrl);

  // One pick connects the EVM side and, through the Wallet Standard, the Solana side.
  await page.getByTestId('latch-connect-button').click();
  await page.getByTestId('latch-view-Connect').waitFor();
  await page.getByRole('button', { name: /Latch Test Wallet/ }).first().click();
  await page.getByTestId('latch-account-button').first().waitFor();
  await waitFor(() => sol.connects.length === 1 && sol.authorized, 'the Solana side connected');
  assert.deepEqual(sol.connects, [{ silent: false }]);

  // The Solana network is in the switcher; on it the account is the Solana one, with its SOL and USDC.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await switchTo(page, net.info.name);
  await page.getByTestId('latch-token-SOL').getByTestId('latch-token-quantity').filter({ hasText: '1,000.000 SOL' }).waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '10,000.000 USDC' }).waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: /1,?000(\.000)? SOL/ }).waitFor();
  await t.screenshot('solana-account-light');

  // 0.5 SOL, then 2 USDC, to dev account #2; each lands on the Solana network.
  await send(page, { token: 'SOL', amount: '0.5', receiver });
  assert.equal(sol.sends.length, 1);
  assert.equal(sol.sends[0].chain, net.info.caipNetworkId, 'the wallet is asked on the local cluster');
  assert.equal(await net.sol(receiver), before.sol2 + 500_000_000n);
  await page.getByTestId('latch-view-Account').waitFor();

  await send(page, { token: 'USDC', amount: '2', receiver });
  assert.equal(sol.sends.length, 2);
  assert.equal(await net.usdc(receiver), before.usdc2 + 2_000_000n);
  assert.equal(await net.usdc(key0.address), before.usdc0 - 2_000_000n);
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '9,998.000 USDC' }).waitFor();

  // Activity lists both sends.
  await page.getByTestId('latch-account-tab-activity').click();
  await page.getByTestId('latch-activity-description').filter({ hasText: /^0\.500 SOL$/ }).waitFor({ timeout: 15_000 });
  await page.getByTestId('latch-activity-description').filter({ hasText: /^2\.000 USDC$/ }).waitFor();
  await t.screenshot('solana-activity-light');

  // A reload stays connected, on the Solana network, silently.
  await page.reload();
  await page.getByTestId('latch-account-button').first().waitFor();
  await waitFor(() => sol.connects.length === 2, 'the reload reconnected the Solana side');
  assert.deepEqual(sol.connects[1], { silent: true });
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '9,998.000 USDC' }).waitFor();

  // EVM and back in one session: the account follows the network's namespace.
  const evm = harness.latchd.info.networks[0];
  await switchTo(page, evm.chainId);
  await page.getByTestId('latch-token-ETH').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: /ETH/ }).waitFor();
  await switchTo(page, net.info.name);
  await page.getByTestId('latch-token-SOL').waitFor();
  await page.getByTestId('latch-account-balance').filter({ hasText: /SOL/ }).waitFor();
});

test('the e-mail wallet connects its Solana key too: on the Solana network its Solana account, funded by the faucet, also after a reload', async () => {
  const net = solana();
  const t = await harness.newPage({ wallet: false });
  const { page } = t;
  // A new account has no shares yet: the frame's first fetch answers 404, then it creates the wallet.
  t.allowConsoleErrors(/shares\/fetch.*404|404.*shares\/fetch/);
  await page.goto(harness.latchd.info.demoUrl);
  await page.getByTestId('latch-connect-button').waitFor();
  const evmAddress = await emailLogin(harness, `solana-${Date.now()}@example.com`).login(page);

  // Its Solana key, as the page's Wallet Standard registry sees it (the e-mail wallet registers once signed in).
  const address = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const poll = () => {
          /** @type {any[]} */
          const wallets = [];
          window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register: (/** @type {any} */ w) => (wallets.push(w), () => {}) } }));
          const mine = wallets.find((w) => w.name === 'E-mail wallet' && w.accounts.length);
          if (mine) resolve(mine.accounts[0].address);
          else setTimeout(poll, 100);
        };
        poll();
      }),
  );
  assert.match(/** @type {string} */ (address), /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  assert.notEqual(address, evmAddress);

  // The faucet funds it on the Solana dev network.
  for (const [token, amount] of [['SOL', '2'], ['USDC', '3']]) {
    const res = await fetch(`${harness.latchd.apiUrl}/dev/faucet`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ address, caipNetworkId: net.info.caipNetworkId, token, amount }),
    });
    assert.equal(res.status, 200, await res.text());
  }
  assert.equal(await net.sol(/** @type {string} */ (address)), 2_000_000_000n);
  assert.equal(await net.usdc(/** @type {string} */ (address)), 3_000_000n);

  // Connected on both sides: on the Solana network the account is the e-mail wallet's Solana key, with its SOL and USDC.
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await switchTo(page, net.info.name);
  await page.waitForFunction((a) => document.querySelector('[data-testid="latch-account-address"]')?.getAttribute('title') === a, address);
  await page.getByTestId('latch-token-SOL').getByTestId('latch-token-quantity').filter({ hasText: '2.000 SOL' }).waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '3.000 USDC' }).waitFor();

  // After a reload the e-mail wallet's Solana side comes back once its frame knows the visitor, on the Solana network.
  await page.reload();
  await page.getByTestId('latch-account-button').first().click();
  await page.getByTestId('latch-view-Account').waitFor();
  await page.waitForFunction((a) => document.querySelector('[data-testid="latch-account-address"]')?.getAttribute('title') === a, address);
  await page.getByTestId('latch-token-SOL').getByTestId('latch-token-quantity').filter({ hasText: '2.000 SOL' }).waitFor();
  await page.getByTestId('latch-token-USDC').getByTestId('latch-token-quantity').filter({ hasText: '3.000 USDC' }).waitFor();
});

/** Polls `check` until it holds (10 s). */
async function waitFor(/** @type {() => boolean} */ check, /** @type {string} */ what) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
