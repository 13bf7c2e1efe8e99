package bundler_test

import (
	"context"
	"math/big"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store/storetest"
)

// reportPercentiles reports p50-ms and p99-ms of times, the metrics bench/ reads.
func reportPercentiles(b *testing.B, times []time.Duration) {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// sponsoredOp is a signed, sponsored first operation of a new account.
func (h *harness) sponsoredOp() *bundler.UserOperation {
	o := h.newOwner()
	op := h.op(o, nil, 0)
	if rerr := h.sponsor(op, "p1"); rerr != nil {
		h.t.Fatal(rerr)
	}
	h.sign(op, o.key)
	return op
}

// BenchmarkInclusion times a sponsored first operation (the account's
// deployment) from eth_sendUserOperation's answer to its receipt, one at a
// time, on the dev chain, which seals a block per transaction.
func BenchmarkInclusion(b *testing.B) {
	h := newHarness(b, storetest.MustOpenSQLite(b), nil)
	h.run()
	times := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		op := h.sponsoredOp()
		hash, rerr := h.send(op)
		if rerr != nil {
			b.Fatal(rerr)
		}
		start := time.Now()
		h.waitReceipt(hash)
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}

// BenchmarkEstimate times eth_estimateUserOperationGas of a first
// operation (deployment and a call) through the service.
func BenchmarkEstimate(b *testing.B) {
	h := newHarness(b, storetest.MustOpenSQLite(b), nil)
	o := h.newOwner()
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b04")
	op := h.op(o, &to, 0)
	op.Signature = nil
	times := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, rerr := h.svc.EstimateUserOperationGas(context.Background(), network, op, chain.EntryPoint); rerr != nil {
			b.Fatal(rerr)
		}
		times = append(times, time.Since(start))
	}
	reportPercentiles(b, times)
}

// BenchmarkThroughputPipelined sends 200 sponsored operations from 50
// accounts, 4 each, all at once: an account's next operations (nonces 1 to
// 3) are sent right after its first (which deploys it), before any is
// included, which the mempool's several pending operations per sender
// allow. It reports operations per second (first send to last receipt)
// and the accepted-to-included latency. b.N is ignored: one run is the
// measurement.
func BenchmarkThroughputPipelined(b *testing.B) {
	const accounts, perAccount = 50, 4
	h := newHarness(b, storetest.MustOpenSQLite(b), nil)
	h.run()
	var mu sync.Mutex
	var times []time.Duration
	var wg sync.WaitGroup
	owners := make([]*owner, accounts)
	for i := range owners {
		owners[i] = h.newOwner()
	}
	start := time.Now()
	for _, o := range owners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := h.op(o, nil, 0)
			first.CallData, _ = accountABI.Pack("execute", common.Address{0xb0}, big.NewInt(0), []byte{})
			if rerr := h.sponsor(first, "p1"); rerr != nil {
				b.Error(rerr)
				return
			}
			h.sign(first, o.key)
			type sent struct {
				hash common.Hash
				at   time.Time
			}
			var all []sent
			for j := 0; j < perAccount; j++ {
				op := first
				if j > 0 {
					op = h.next(o, first, int64(j), common.Address{0xb0}, 0)
				}
				hash, rerr := h.send(op)
				if rerr != nil {
					b.Error(rerr)
					return
				}
				all = append(all, sent{hash, time.Now()})
			}
			for _, s := range all {
				if r := h.waitReceipt(s.hash); !r.Success {
					b.Error("operation failed")
					return
				}
				mu.Lock()
				times = append(times, time.Since(s.at))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(times) != accounts*perAccount {
		b.Fatalf("%d of %d operations included", len(times), accounts*perAccount)
	}
	b.ReportMetric(float64(len(times))/elapsed.Seconds(), "ops/s")
	reportPercentiles(b, times)
}

// BenchmarkThroughput sends 200 sponsored operations from 50 accounts (4
// each, an account's next once its last is included, as a wallet does)
// and reports operations per second and the accepted-to-included latency.
// b.N is ignored: one run is the measurement.
func BenchmarkThroughput(b *testing.B) {
	const accounts, perAccount = 50, 4
	h := newHarness(b, storetest.MustOpenSQLite(b), nil)
	h.run()
	var mu sync.Mutex
	var times []time.Duration
	var wg sync.WaitGroup
	owners := make([]*owner, accounts)
	for i := range owners {
		owners[i] = h.newOwner()
	}
	start := time.Now()
	for _, o := range owners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < perAccount; j++ {
				op := h.op(o, nil, 0)
				op.CallData, _ = accountABI.Pack("execute", common.Address{0xb0}, big.NewInt(0), []byte{})
				if rerr := h.sponsor(op, "p1"); rerr != nil {
					b.Error(rerr)
					return
				}
				h.sign(op, o.key)
				hash, rerr := h.send(op)
				if rerr != nil {
					b.Error(rerr)
					return
				}
				sent := time.Now()
				if r := h.waitReceipt(hash); !r.Success {
					b.Error("operation failed")
					return
				}
				mu.Lock()
				times = append(times, time.Since(sent))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(times) != accounts*perAccount {
		b.Fatalf("%d of %d operations included", len(times), accounts*perAccount)
	}
	b.ReportMetric(float64(len(times))/elapsed.Seconds(), "ops/s")
	reportPercentiles(b, times)
}
