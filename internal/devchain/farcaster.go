package devchain

import "crypto/ecdsa"

// devFarcasterCustodyLabel derives the custody key of the dev chains' test
// Farcaster account, like the other dev keys: it signs only Sign In With
// Farcaster messages for latchd dev, and anyone can derive it.
const devFarcasterCustodyLabel = "latch devnet farcaster custody v1"

// DevFarcasterFID is the Farcaster id the dev chains' ID registry
// (DevFarcasterIdRegistry) gives DevFarcasterCustodyKey at start: the
// registry's first.
const DevFarcasterFID = 1

// DevFarcasterUsername is the name latchd dev's scripted Farcaster client
// signs in with.
const DevFarcasterUsername = "latch-dev"

// DevFarcasterCustodyKey is the custody key of DevFarcasterFID on every dev
// chain; a scripted Farcaster client signs with it.
func DevFarcasterCustodyKey() *ecdsa.PrivateKey { return labelKey(devFarcasterCustodyLabel) }
