package bundler_test

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store/storetest"
)

// BenchmarkPaymasterData times pm_getPaymasterData through the service:
// a fresh account's first operation each time (its bounds read from the
// dev chain, its budgets reserved in SQLite, the approval signed).
func BenchmarkPaymasterData(b *testing.B) {
	h := newHarness(b, storetest.MustOpenSQLite(b), nil)
	ctx := context.Background()
	chainID := hexutil.EncodeUint64(chain.ChainID)
	times := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		op := h.op(h.newOwner(), nil, 0)
		op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster)
		start := time.Now()
		if _, rerr := h.svc.PaymasterData(ctx, "p1", network, op, chain.EntryPoint, chainID); rerr != nil {
			b.Fatal(rerr)
		}
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}
