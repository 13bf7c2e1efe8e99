// The frame's key code: the BIP-39 seed and the 2-of-3 shares. wallet.ts
// loads it with import() when it first needs a key, so the script the frame
// runs up to READY holds none of the hashes or the BIP-39 wordlist; main.ts
// fetches it right after READY, before the page asks for a signature. Each
// chain's key and signing code is a script of its own (evm.ts, solana.ts;
// keys.ts loads the one a signature needs), and so are EIP-712, transactions
// and password recovery.
export { addressesOf, CHAINS, newEntropy, withKeys, type Chain } from './keys'
export { combineShares, deriveShare, splitEntropy } from './shares'
