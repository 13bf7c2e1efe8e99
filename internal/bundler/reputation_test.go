package bundler_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// ERC-7562's reputation calculation: maxSeen = opsSeen / 10 (the bundler's
// MIN_INCLUSION_RATE_DENOMINATOR); throttled above opsIncluded + 10
// (THROTTLING_SLACK), banned above opsIncluded + 50 (BAN_SLACK).
func TestReputation_Status(t *testing.T) {
	for _, tt := range []struct {
		seen, included uint64
		want           bundler.ReputationStatus
	}{
		{0, 0, bundler.ReputationOK},
		{109, 0, bundler.ReputationOK},
		{110, 0, bundler.ReputationThrottled},
		{119, 1, bundler.ReputationOK},
		{509, 0, bundler.ReputationThrottled},
		{510, 0, bundler.ReputationBanned},
		{1000, 49, bundler.ReputationBanned},
		{1000, 50, bundler.ReputationThrottled},
		{1000, 90, bundler.ReputationOK},
	} {
		if got := (bundler.Reputation{OpsSeen: tt.seen, OpsIncluded: tt.included}).Status(); got != tt.want {
			t.Errorf("seen %d, included %d: %s, want %s", tt.seen, tt.included, got, tt.want)
		}
	}
}

// Counts decay to 23/24 of themselves at every hour boundary (rounded
// down): GREP-040's penalty of 10,000 seen keeps an entity banned for 69
// hours, throttled until the 105th.
func TestStore_ReputationDecay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st, ctx := bundler.NewStore(db), context.Background()
		a := common.Address{0xde, 0xca}
		t0 := time.Date(2026, 3, 1, 10, 59, 0, 0, time.UTC)
		if err := st.SetReputation(ctx, network, bundler.Reputation{Address: a, OpsSeen: 10_000}, t0); err != nil {
			t.Fatal(err)
		}
		at := func(d time.Duration) bundler.Reputation {
			t.Helper()
			reps, err := st.Reputations(ctx, network, []common.Address{a}, t0.Add(d))
			if err != nil {
				t.Fatal(err)
			}
			return reps[a]
		}
		for _, tt := range []struct {
			after  time.Duration
			seen   uint64
			status bundler.ReputationStatus
		}{
			{59 * time.Second, 10_000, bundler.ReputationBanned}, // same hour
			{time.Minute, 9583, bundler.ReputationBanned},        // 11:00, the first boundary
			{2 * time.Hour, 9183, bundler.ReputationBanned},
			{69 * time.Hour, 521, bundler.ReputationBanned},
			{70 * time.Hour, 499, bundler.ReputationThrottled},
			{105 * time.Hour, 105, bundler.ReputationOK},
		} {
			if r := at(tt.after); r.OpsSeen != tt.seen || r.Status() != tt.status {
				t.Errorf("after %s: %+v (%s), want %d seen, %s", tt.after, r, r.Status(), tt.seen, tt.status)
			}
		}
		// A change decays the row first: one seen two hours on is 9183 + 1.
		if err := st.SeeForTest(ctx, network, a, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if r := at(2 * time.Hour); r.OpsSeen != 9184 {
			t.Fatalf("after a change: %+v, want 9184 seen", r)
		}
	})
}

// Nodes sharing a database count every operation: increments of the same
// entity in concurrent transactions are not lost.
func TestStore_ReputationConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st, ctx, now := bundler.NewStore(db), context.Background(), time.Now()
		a := common.Address{0xc0, 0x01}
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if err := st.SeeForTest(ctx, network, a, now); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		reps, err := st.Reputations(ctx, network, []common.Address{a}, now)
		if err != nil || reps[a].OpsSeen != 16 {
			t.Fatalf("%+v, %v; want 16 seen", reps[a], err)
		}
	})
}

// A factory whose operations are seen and not included (here: the
// bundling loop does not run) is throttled after ERC-7562's count, 110 with
// none included (110 / 10 > 0 + 10): while 4 or more of its operations are
// in the mempool the next is refused with -32504. Its counts decay hourly,
// which lifts the throttle.
func TestService_ReputationThrottlesFactory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		h.now = time.Now()
		factory := h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(factoryRuleNone))
		for i := int64(1); i <= 110; i++ {
			if _, rerr := h.send(h.factoryOp(factory, i)); rerr != nil {
				t.Fatalf("operation %d: %+v", i, rerr)
			}
		}
		op := h.factoryOp(factory, 111)
		_, rerr := h.send(op)
		wantCode(t, rerr, bundler.CodeReputation)
		var data map[string]common.Address
		if json.Unmarshal(rerr.Data, &data); data["factory"] != factory || !strings.Contains(rerr.Message, "factory "+factory.Hex()+" is throttled") {
			t.Fatalf("refusal %+v", rerr)
		}
		h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		reps, err := h.st.Reputations(context.Background(), network, []common.Address{factory, chain.SmartAccountFactory, chain.VerifyingPaymaster}, h.now)
		if err != nil {
			t.Fatal(err)
		}
		if r := reps[factory]; r.OpsSeen != 110 || r.OpsIncluded != 0 || r.Status() != bundler.ReputationThrottled {
			t.Fatalf("factory %+v", r)
		}
		if len(reps) != 1 {
			t.Fatalf("the network's own factory and paymaster are rated: %+v", reps)
		}

		// An hour on, 110 seen are 105: not throttled.
		h.now = h.now.Add(time.Hour)
		if _, rerr := h.send(h.factoryOp(factory, 111)); rerr != nil {
			t.Fatalf("an hour later: %+v", rerr)
		}
	})
}

// Each accepted operation counts as seen, and each included one as
// included, for its sender and its factory and paymaster, except the
// network's own factory and paymaster, which are not rated.
func TestService_ReputationCounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		factory := h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(factoryRuleNone))
		first, second := h.factoryOp(factory, 1), h.factoryOp(factory, 2)
		o := h.newOwner()
		own := h.op(o, nil, 0) // the network's factory, sponsored by its paymaster
		h.sponsor(own, "p1")
		h.sign(own, o.key)
		var hashes []common.Hash
		for _, op := range []*bundler.UserOperation{first, second, own} {
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatal(rerr)
			}
			hashes = append(hashes, hash)
		}
		rated := []common.Address{factory, first.Sender, second.Sender, o.account, chain.SmartAccountFactory, chain.VerifyingPaymaster}
		reps, err := h.st.Reputations(context.Background(), network, rated, time.Now())
		if err != nil || reps[factory].OpsSeen != 2 || reps[first.Sender].OpsSeen != 1 || reps[o.account].OpsSeen != 1 || len(reps) != 4 {
			t.Fatalf("seen: %+v, %v", reps, err)
		}
		h.run()
		for _, hash := range hashes {
			h.waitStatus(hash, bundler.StatusIncluded)
		}
		// Counted once the bundle is settled, just after the operations are marked included.
		deadline := time.Now().Add(15 * time.Second)
		for {
			reps, err = h.st.Reputations(context.Background(), network, rated, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if reps[factory].OpsIncluded == 2 && reps[first.Sender].OpsIncluded == 1 && reps[second.Sender].OpsIncluded == 1 && reps[o.account].OpsIncluded == 1 && len(reps) == 4 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("included: %+v", reps)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// A banned entity's operations are refused with -32504 and the ones already
// in the mempool are dropped before the next bundle (GREP-010).
func TestService_ReputationBan(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		factory := h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(factoryRuleNone))
		first, rerr := h.send(h.factoryOp(factory, 1))
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err := h.st.SetReputation(context.Background(), network, bundler.Reputation{Address: factory, OpsSeen: 10_000}, time.Now()); err != nil {
			t.Fatal(err)
		}
		op := h.factoryOp(factory, 2)
		_, rerr = h.send(op)
		wantCode(t, rerr, bundler.CodeReputation)
		if !strings.Contains(rerr.Message, "factory "+factory.Hex()+" is banned") {
			t.Fatalf("message %q", rerr.Message)
		}
		h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		h.run()
		if r := h.waitStatus(first, bundler.StatusFailed); !strings.Contains(r.Reason, "is banned") {
			t.Fatalf("reason %q", r.Reason)
		}
	})
}
