package solanadev

import (
	"context"
	"errors"
	"testing"
)

// StartForTest starts a dev network for a test (in memory when dataDir is
// "") and stops it when the test ends. It skips the test, saying why, when
// Node.js or the package is missing; make test installs both.
func StartForTest(tb testing.TB, dataDir string) *Network {
	tb.Helper()
	n, err := Start(context.Background(), Config{DataDir: dataDir})
	var unavailable *UnavailableError
	if errors.As(err, &unavailable) {
		tb.Skipf("the Solana dev network cannot run here: %s", unavailable.Reason)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { n.Close() })
	return n
}
