package indexer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/latchkit/latch/internal/caip"
)

// Start is where to start following a non-dev network, as --index-network
// gives it.
type Start struct {
	Network string // CAIP-2 id, "eip155:<chain id>"
	ChainID uint64
	Block   uint64 // the first block to index, unless AtHead
	AtHead  bool   // start at the network's head when first followed
}

// ParseStart parses --index-network "eip155:1=19000000" or "eip155:1=head".
func ParseStart(s string) (Start, error) {
	id, from, ok := strings.Cut(s, "=")
	chainID, err := caip.EVMChainID(id)
	if !ok || err != nil {
		return Start{}, fmt.Errorf("--index-network %q: want <eip155 network id>=<start block|head>", s)
	}
	if from == "head" {
		return Start{Network: id, ChainID: chainID, AtHead: true}, nil
	}
	block, err := strconv.ParseUint(from, 10, 63)
	if err != nil {
		return Start{}, fmt.Errorf("--index-network %q: the start block must be a number or head", s)
	}
	return Start{Network: id, ChainID: chainID, Block: block}, nil
}
