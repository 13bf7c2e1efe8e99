// The frame's key code: key derivation (BIP-39, BIP-44, SLIP-0010), the
// 2-of-3 shares, personal_sign and Solana signing (EIP-712 and transactions
// are scripts of their own: evm.ts). wallet.ts and rpc.ts load it with
// import() when they first need a key, so the script the frame runs up to
// READY holds none of the curves, hashes or the BIP-39 wordlist; main.ts
// fetches it right after READY, before the page asks for a signature.
export { addressesOf, newEntropy, withKeys } from './keys'
export { combineShares, deriveShare, splitEntropy } from './shares'
export { addressSchema, hexSchema, InvalidParamsError, keyFor, parse, personalSign, type ChainCall } from './evm'
export * as solana from './solana'
