// Connecting without the modal (issue 26): the demo's ?headless=1 section draws
// its own wallet list with useLatchWallets and two <WalletButton>s. An
// installed wallet connects directly and a WalletConnect pairing shows its URI
// in the page, the wallet peer (lib/wc-peer.mjs) approving it through latchd's
// relay; a wallet button connects an installed MetaMask. The modal never opens:
// an init script watches the page for it. Build the web packages first
// (scripts/test-e2e.sh does).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { useHarness } from '../lib/harness.mjs';
import { createWallet, guardNetwork, relayUrlOf } from '../lib/wc-peer.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '../../apps/demo/dist');
if (!existsSync(join(demoDir, 'index.html'))) throw new Error(`demo not built: ${demoDir} (npm run build in web/)`);

const harness = useHarness({ latchdArgs: ['--demo-dir', demoDir, '--demo-addr', '127.0.0.1:0'] });

const network = guardNetwork();
after(() => network.restore());
afterEach(() => assert.deepEqual(network.violations, [], 'the wallet peer contacted a host other than latchd'));

const wallets = [];
afterEach(async () => {
  await Promise.allSettled(wallets.splice(0).map((w) => w.close()));
});

/**
 * Opens the demo with ?headless=1 (with the test wallet unless `wallet` is false); an init script notes whether the
 * modal ever appears.
 * @param {false | {name?: string, rdns?: string}} [wallet]
 */
async function openHeadless(wallet = {}) {
  const testPage = await harness.newPage(wallet === false ? { wallet: false } : { wallet });
  const { page } = testPage;
  await page.addInitScript(() => {
    const seen = () => {
      if (document.querySelector('[data-testid="latch-modal"], [role="dialog"]')) window.__latchModalSeen = true;
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${harness.latchd.info.demoUrl}?headless=1`);
  await page.getByTestId('demo-headless').waitFor();
  return { testPage, page };
}

/** Waits for the demo's account readout to say connected, with `address` when given. */
async function connected(page, address) {
  await page.getByTestId('demo-account').filter({ hasText: '"status": "connected"' }).waitFor();
  if (address) await page.getByTestId('demo-account').filter({ hasText: address }).waitFor();
}

const modalSeen = (page) => page.evaluate(() => Boolean(window.__latchModalSeen));

test('useLatchWallets().connect connects the installed wallet, the modal never opening', async () => {
  const { page, testPage } = await openHeadless();
  const row = page.getByTestId('demo-headless-wallets').getByRole('button', { name: 'Latch Test Wallet (installed)' });
  await row.click();
  await connected(page, testPage.wallet.address);
  assert.equal(await modalSeen(page), false, 'the modal opened');
});

test('useLatchWallets().connect pairs over WalletConnect with the URI in the page; the wallet approves, the modal never opening', async () => {
  const { page } = await openHeadless(false);
  const { info, apiUrl } = harness.latchd;
  const hd = mnemonicToAccount(info.mnemonic, { addressIndex: 1 }).getHdKey();
  if (!hd.privateKey) throw new Error('no private key for account #1');
  const wallet = await createWallet({
    relayUrl: relayUrlOf(apiUrl),
    projectId: info.projectId,
    privateKey: toHex(hd.privateKey),
    chains: info.networks.map((n) => ({ chainId: n.chainId, rpcUrl: n.rpcUrl })),
  });
  wallets.push(wallet);

  await page.getByTestId('demo-headless-wallet-walletConnect').click();
  const uri = await page.getByTestId('demo-headless-wc-uri').textContent();
  assert.match(uri ?? '', /^wc:[0-9a-f]{64}@2\?/);
  await wallet.pair(uri);
  await wallet.nextSession();
  await connected(page, wallet.address);
  assert.equal(await modalSeen(page), false, 'the modal opened');
  await page.getByTestId('demo-headless-wc-uri').waitFor({ state: 'detached' });
});

test('<WalletButton wallet="metamask" /> connects an installed MetaMask (matched by rdns) directly', async () => {
  const { page, testPage } = await openHeadless({ name: 'MetaMask', rdns: 'io.metamask' });
  const button = page.getByRole('button', { name: 'Connect MetaMask' });
  await button.click();
  await connected(page, testPage.wallet.address);
  assert.equal(await modalSeen(page), false, 'the modal opened');
});

test('<WalletButton wallet="walletConnect" /> opens the modal on the WalletConnect QR code', async () => {
  const { page } = await openHeadless(false);
  await page.getByRole('button', { name: 'Connect WalletConnect' }).click();
  await page.getByTestId('latch-view-ConnectingWalletConnect').waitFor();
  await page.getByTestId('latch-wc-qr-svg').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Connecting WalletConnect…' }).isDisabled(), true);
  // The watcher the other tests rely on does see a modal.
  assert.equal(await modalSeen(page), true);
});
