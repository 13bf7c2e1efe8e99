package app

import (
	"errors"

	"github.com/latchkit/latch/internal/devchain"
)

// devChains starts the dev chains of latchd dev; nil in a build that has none.
var devChains devchain.Starter

// UseDevChains sets how latchd dev starts its dev chains. latchd's dev build
// (build tag devchain, bin/latchd-dev) registers package devnet's in-process
// nodes; the production build registers none, so it links no node code and
// latchd dev refuses to start (errNoDevChains). Call it before Main.Run.
func UseDevChains(start devchain.Starter) { devChains = start }

// errNoDevChains is what latchd dev answers in a build without dev chains.
var errNoDevChains = errors.New("this latchd was built without dev chains (a production build): " +
	"build the dev build with `make build-dev` (bin/latchd-dev) or `go build -tags devchain ./cmd/latchd`, " +
	"or run `make dev`")
