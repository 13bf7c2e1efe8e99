// Dev keys: the test mnemonic's Solana accounts (SLIP-0010 ed25519,
// m/44'/501'/i'/0', the path Phantom and Solflare use) and the fixed keys of
// the dev network's own accounts, each derived from a label so they are the
// same on every start.
import { ed25519 } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha256, sha512 } from '@noble/hashes/sha2';
import { mnemonicToSeedSync } from '@scure/bip39';
import { getBase58Decoder } from '@solana/kit';

/** The well-known test mnemonic whose first accounts the EVM dev chains fund too. */
export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

const HARDENED = 0x80000000;
const base58 = getBase58Decoder();

/** A dev key pair: the 32-byte ed25519 seed, the public key and its base58 address. */
export function keyPairFromSeed(seed) {
  const publicKey = ed25519.getPublicKey(seed);
  return { seed, publicKey, address: base58.decode(publicKey) };
}

/** slip10 derives the ed25519 seed of a hardened path (SLIP-0010 allows hardened steps only). */
export function slip10(seed, path) {
  let I = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  let key = I.slice(0, 32);
  let chain = I.slice(32);
  for (const index of path) {
    const data = new Uint8Array(37);
    data[0] = 0;
    data.set(key, 1);
    new DataView(data.buffer).setUint32(33, (index | HARDENED) >>> 0, false);
    I = hmac(sha512, chain, data);
    key = I.slice(0, 32);
    chain = I.slice(32);
  }
  return key;
}

/** devAccounts returns the first n Solana accounts of mnemonic (m/44'/501'/i'/0'). */
export function devAccounts(mnemonic, n) {
  const seed = mnemonicToSeedSync(mnemonic);
  const out = [];
  for (let i = 0; i < n; i++) out.push(keyPairFromSeed(slip10(seed, [44, 501, i, 0])));
  return out;
}

/** labelKeyPair is the key pair whose seed is sha256(label): fixed accounts of the dev network. */
export function labelKeyPair(label) {
  return keyPairFromSeed(sha256(new TextEncoder().encode(label)));
}

/** sign signs message with a dev key pair. */
export function sign(kp, message) {
  return ed25519.sign(message, kp.seed);
}
