package app

import "github.com/latchkit/latch/internal/devnet"

// The tests run latchd dev with real dev chains: the test binary may link the
// node code that the production build leaves out.
func init() { UseDevChains(devnet.StartChains) }
