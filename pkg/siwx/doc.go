// Package siwx verifies Sign-In with X: an EIP-4361 ("Sign-In with
// Ethereum") message, or a CAIP-122 message for Solana, and its signature.
// latchd verifies every sign-in with it, so a dapp's own backend that
// imports it accepts exactly what latchd accepts.
//
// A sign-in is checked in three steps, each refusal an *Error with its own
// Reason:
//
//   - ParseMessage reads the message strictly (ReasonMalformed, with the
//     field at fault).
//   - Verifier.Check compares it with what the verifier expects: the domain
//     (ReasonDomain), a URI on that domain (ReasonURI), the chain
//     (ReasonChain), the nonce the verifier issued (ReasonNonce), and
//     issuedAt, notBefore and expirationTime against the clock, within
//     Skew (ReasonNotYetValid, ReasonExpired).
//   - Verifier.VerifySignature checks the signature (ReasonSignature): an
//     EOA's by ecrecover of the EIP-191 hash; else a deployed smart
//     account's by ERC-1271 isValidSignature in one eth_call; an ERC-6492
//     wrapped signature (an undeployed smart account) by running the ERC's
//     universal validator as an eth_call without deploying it; a Solana
//     account's by ed25519 over the message's bytes. Smart-account checks
//     need Verifier.Chains; without it, or when the RPC fails, the answer is
//     ReasonUnverifiable.
//
// Verifier.Verify runs the three. The nonce is the caller's to issue, keep
// and spend once: a verified sign-in proves only that the address signed
// this message.
package siwx
