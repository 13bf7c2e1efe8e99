//go:build devchain

package main

import (
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/devnet"
)

// The dev build (go build -tags devchain, make build-dev) runs latchd dev's
// chains as in-process go-ethereum nodes; the production build has none.
func init() { app.UseDevChains(devnet.StartChains) }
