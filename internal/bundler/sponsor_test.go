package bundler_test

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// prefund is what an approval of op reserves: every gas limit, with the
// paymaster's, at maxFeePerGas.
func prefund(op *bundler.UserOperation) *big.Int {
	c := op.Copy()
	pm := chain.VerifyingPaymaster
	c.Paymaster, c.PaymasterVerificationGasLimit, c.PaymasterPostOpGasLimit = &pm, 100_000, 50_000
	c.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, pm)
	return c.RequiredPrefund()
}

// waitSpent polls projectID's report until ops operations are settled.
func (h *harness) waitSpent(projectID string, ops int64) bundler.BalanceReport {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := h.report(projectID)
		if r.IncludedToday >= ops {
			return r
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%d operations settled, want %d: %+v", r.IncludedToday, ops, r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two projects' balances are separate: one's used up (by approvals it
// holds, then by a daily budget) stops its sponsorship only.
func TestSponsor_TwoProjects(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		a, b := mustProject(t, db), mustProject(t, db)
		first := h.op(h.newOwner(), nil, 0)
		cost := prefund(first)
		h.fundProject(a, new(big.Int).Add(cost, new(big.Int).Div(cost, big.NewInt(2)))) // one and a half operations
		h.fundProject(b, milliEther(100))
		if rerr := h.sponsor(first, a); rerr != nil {
			t.Fatal(rerr)
		}
		wantRefusal(t, h.sponsor(h.op(h.newOwner(), nil, 0), a), bundler.CodePaymasterRejected, "held by approvals not yet used")
		if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), b); rerr != nil {
			t.Fatalf("the other project: %v", rerr)
		}
		if r := h.report(a); r.Reserved.Cmp(cost) != 0 || r.Spent.Sign() != 0 {
			t.Fatalf("project a: reserved %s spent %s, want %s reserved", r.Reserved, r.Spent, cost)
		}

		t.Run("DailyBudget", func(t *testing.T) {
			c, d := mustProject(t, db), mustProject(t, db)
			h.fundProject(c, milliEther(100))
			h.fundProject(d, milliEther(100))
			// One operation and a half (fees move between operations).
			if err := h.st.SetPolicy(context.Background(), c, bundler.Policy{Enabled: true, DailyBudget: new(big.Int).Add(cost, new(big.Int).Div(cost, big.NewInt(2)))}, time.Now()); err != nil {
				t.Fatal(err)
			}
			if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), c); rerr != nil {
				t.Fatal(rerr)
			}
			wantRefusal(t, h.sponsor(h.op(h.newOwner(), nil, 0), c), bundler.CodeThrottled, "This project has reached today's sponsorship budget of")
			if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), d); rerr != nil {
				t.Fatalf("the other project: %v", rerr)
			}
		})
		t.Run("NetworkDailyBudget", func(t *testing.T) {
			capped := newHarness(t, db, func(c *bundler.Config) { c.Networks[0].Sponsor.DailyBudget = new(big.Int).Add(cost, big.NewInt(1)) })
			e := mustProject(t, db)
			capped.fundProject(e, milliEther(100))
			// Today's live approvals on the network already hold more than the budget.
			wantRefusal(t, capped.sponsor(capped.op(capped.newOwner(), nil, 0), e), bundler.CodeThrottled, "Sponsorship on "+network+" has reached today's budget")
		})
	})
}

// An approval that expires unused gives back what it held (the clock is
// injected): the balance it held sponsors another operation.
func TestSponsor_ExpiryReleases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		p := mustProject(t, db)
		start := time.Now()
		h.now = start
		op := h.op(h.newOwner(), nil, 0)
		cost := prefund(op)
		h.fundProject(p, new(big.Int).Add(cost, new(big.Int).Div(cost, big.NewInt(2))))
		if rerr := h.sponsor(op, p); rerr != nil {
			t.Fatal(rerr)
		}
		other := h.op(h.newOwner(), nil, 0)
		wantRefusal(t, h.sponsor(other, p), bundler.CodePaymasterRejected, "held by approvals not yet used")

		h.now = start.Add(bundler.DefaultApprovalLifetime - time.Second)
		wantRefusal(t, h.sponsor(other, p), bundler.CodePaymasterRejected, "held by approvals not yet used")
		if r := h.report(p); r.Reserved.Cmp(cost) != 0 {
			t.Fatalf("reserved %s before the approval expired, want %s", r.Reserved, cost)
		}

		h.now = start.Add(bundler.DefaultApprovalLifetime + time.Second)
		if r := h.report(p); r.Reserved.Sign() != 0 || r.Left.Cmp(r.Funded) != 0 {
			t.Fatalf("after expiry: reserved %s, left %s of %s", r.Reserved, r.Left, r.Funded)
		}
		if rerr := h.sponsor(other, p); rerr != nil {
			t.Fatalf("after the first approval expired: %v", rerr)
		}
	})
}

// A griefer asks for approvals for someone else's account (anyone can:
// the paymaster sees only the operation), more than the account's daily
// cap and budget allow. Its own operation is still sponsored and included,
// and settles from its UserOperationEvent at its actualGasCost.
func TestSponsor_GrieferCannotStopAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		h.run()
		p := mustProject(t, db)
		h.fundProject(p, milliEther(100))
		victim := h.newOwner()
		cost := prefund(h.op(victim, nil, 0))
		policy := bundler.Policy{Enabled: true, AccountDailyCap: 20, AccountDailyBudget: new(big.Int).Mul(cost, big.NewInt(3))}
		if err := h.st.SetPolicy(context.Background(), p, policy, time.Now()); err != nil {
			t.Fatal(err)
		}
		refused := 0
		for i := 0; i < 25; i++ {
			op := h.op(victim, nil, 0)
			op.Nonce = big.NewInt(int64(i % bundler.DefaultMaxPendingPerSender))
			op.CallGasLimit += uint64(i) // a different approval each time
			if h.sponsor(op, p) != nil {
				refused++
			}
		}
		if refused == 0 {
			t.Fatal("25 approvals for one account, none refused: the account's bounds are not in force")
		}

		to := common.HexToAddress("0x00000000000000000000000000000000000b0b33")
		op := h.op(victim, &to, 0)
		if rerr := h.sponsor(op, p); rerr != nil {
			t.Fatalf("the account's own operation after the griefer's approvals: %v", rerr)
		}
		h.sign(op, victim.key)
		hash, rerr := h.send(op)
		if rerr != nil {
			t.Fatal(rerr)
		}
		receipt := h.waitReceipt(hash)
		if !receipt.Success {
			t.Fatalf("receipt %+v", receipt)
		}
		// Settled at what the EntryPoint charged, not what was reserved.
		r := h.waitSpent(p, 1)
		if r.Spent.Cmp(receipt.ActualGasCost.ToInt()) != 0 || r.SpentToday.Cmp(r.Spent) != 0 {
			t.Fatalf("spent %s (today %s, %d operations), want the receipt's actualGasCost %s", r.Spent, r.SpentToday, r.IncludedToday, receipt.ActualGasCost.ToInt())
		}
		if receipt.ActualGasCost.ToInt().Cmp(cost) >= 0 {
			t.Fatalf("actualGasCost %s is not below the prefund %s", receipt.ActualGasCost.ToInt(), cost)
		}
		// Nonce 0's other approvals ended with it; those for nonces 1 to 3 live on.
		want := new(big.Int).Sub(new(big.Int).Sub(r.Funded, r.Spent), r.Reserved)
		if r.Left.Cmp(want) != 0 || r.Reserved.Sign() == 0 {
			t.Fatalf("left %s, reserved %s", r.Left, r.Reserved)
		}
	})
}

func TestStore_Settle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st := bundler.NewStore(db)
		ctx := context.Background()
		now := time.Now()
		if err := st.Fund(ctx, "proj", network, big.NewInt(0), "", now); err == nil {
			t.Fatal("a zero top-up was accepted")
		}
		if err := st.Fund(ctx, "proj", network, milliEther(10), "first", now); err != nil {
			t.Fatal(err)
		}
		sender := common.Address{0x5e}
		r := bundler.Reservation{ID: common.Hash{1}, ProjectID: "proj", Network: network, Sender: sender, Nonce: big.NewInt(0), Amount: milliEther(2), ValidUntil: now.Add(time.Minute), NextNonce: big.NewInt(0)}
		if err := st.Reserve(ctx, r, bundler.Budgets{}, now); err != nil {
			t.Fatal(err)
		}
		twin := r // another approval of the same sender and nonce holds no more
		twin.ID, twin.Amount = common.Hash{2}, milliEther(1)
		if err := st.Reserve(ctx, twin, bundler.Budgets{}, now); err != nil {
			t.Fatal(err)
		}
		if err := st.Reserve(ctx, r, bundler.Budgets{}, now); err != nil {
			t.Fatalf("the same approval again: %v", err)
		}
		rows, _ := st.Report(ctx, now)
		if len(rows) != 1 || rows[0].Reserved.Cmp(milliEther(2)) != 0 || rows[0].Left.Cmp(milliEther(8)) != 0 {
			t.Fatalf("report %+v", rows)
		}
		s := bundler.Settlement{UserOpHash: twin.ID, Sender: sender, Nonce: big.NewInt(0), ActualGasCost: big.NewInt(12345)}
		for i, want := range []int{1, 0} { // settled once, even twice in one call
			if got, err := st.Settle(ctx, network, []bundler.Settlement{s, s}, now); err != nil || got != want {
				t.Fatalf("settle %d: %v, %v", i, got, err)
			}
		}
		// Spent by the chain, unknown to latchd: recorded against no project.
		if _, err := st.Settle(ctx, network, []bundler.Settlement{{UserOpHash: common.Hash{9}, Sender: common.Address{9}, Nonce: big.NewInt(0), ActualGasCost: big.NewInt(7)}}, now); err != nil {
			t.Fatal(err)
		}
		rows, _ = st.Report(ctx, now)
		if len(rows) != 2 || rows[0].ProjectID != "" || rows[0].Spent.Int64() != 7 || rows[1].Spent.Int64() != 12345 || rows[1].Reserved.Sign() != 0 || rows[1].IncludedToday != 1 {
			t.Fatalf("report %+v %+v", rows[0], rows[1])
		}
		if rows[1].Left.Cmp(new(big.Int).Sub(milliEther(10), big.NewInt(12345))) != 0 {
			t.Fatalf("left %s", rows[1].Left)
		}
	})
}

// The statements Reserve prepares are prepared outside its transaction: on
// a database of one connection (in-memory SQLite) preparing inside it
// would wait for that connection forever.
func TestStore_ReserveOneConnection(t *testing.T) {
	db, err := store.Open(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := bundler.NewStore(db)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := st.Fund(ctx, "proj", network, milliEther(1), "", time.Now()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		r := bundler.Reservation{ID: common.Hash{byte(i + 1)}, ProjectID: "proj", Network: network, Sender: common.Address{byte(i + 1)}, Nonce: new(big.Int), Amount: big.NewInt(1e12), ValidUntil: time.Now().Add(time.Minute)}
		if err := st.Reserve(ctx, r, bundler.Budgets{}, time.Now()); err != nil {
			t.Fatalf("reserve %d: %v", i, err)
		}
	}
}

// Several operations settled in one call (a bundle's) add up in the
// project's balance, its daily sums and count, and release their slots,
// as one call each would.
func TestStore_SettleSeveral(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st := bundler.NewStore(db)
		ctx, now := context.Background(), time.Now()
		if err := st.Fund(ctx, "proj", network, milliEther(10), "", now); err != nil {
			t.Fatal(err)
		}
		var sts []bundler.Settlement
		for i := byte(1); i <= 3; i++ {
			r := bundler.Reservation{ID: common.Hash{i}, ProjectID: "proj", Network: network, Sender: common.Address{i}, Nonce: big.NewInt(0), Amount: milliEther(1), ValidUntil: now.Add(time.Minute), NextNonce: big.NewInt(0)}
			if err := st.Reserve(ctx, r, bundler.Budgets{}, now); err != nil {
				t.Fatal(err)
			}
			sts = append(sts, bundler.Settlement{UserOpHash: r.ID, Sender: r.Sender, Nonce: r.Nonce, ActualGasCost: big.NewInt(int64(i) * 1000)})
		}
		if got, err := st.Settle(ctx, network, sts[:2], now); err != nil || got != 2 {
			t.Fatalf("settle: %d, %v", got, err)
		}
		rows, err := st.Report(ctx, now)
		if err != nil || len(rows) != 1 {
			t.Fatalf("report %+v, %v", rows, err)
		}
		r := rows[0]
		if r.Spent.Int64() != 3000 || r.SpentToday.Int64() != 3000 || r.IncludedToday != 2 || r.Reserved.Cmp(milliEther(1)) != 0 {
			t.Fatalf("after two: spent %s (today %s, %d operations), reserved %s", r.Spent, r.SpentToday, r.IncludedToday, r.Reserved)
		}
		if got, err := st.Settle(ctx, network, sts, now); err != nil || got != 1 {
			t.Fatalf("settle all three again: %d, %v; want the third only", got, err)
		}
		rows, _ = st.Report(ctx, now)
		if r := rows[0]; r.Spent.Int64() != 6000 || r.IncludedToday != 3 || r.Reserved.Sign() != 0 {
			t.Fatalf("after three: spent %s, %d operations, reserved %s", r.Spent, r.IncludedToday, r.Reserved)
		}
	})
}

// Asked without the chain's nonce (as pm_getPaymasterData asks first), a
// reservation for an account with approvals held in the project answers
// ErrNeedNonce, and the same approval asked again is still a no-op.
func TestStore_ReserveNeedsNonce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st := bundler.NewStore(db)
		ctx, now := context.Background(), time.Now()
		if err := st.Fund(ctx, "proj", network, milliEther(10), "", now); err != nil {
			t.Fatal(err)
		}
		r := bundler.Reservation{ID: common.Hash{1}, ProjectID: "proj", Network: network, Sender: common.Address{1}, Nonce: big.NewInt(0), Amount: milliEther(1), ValidUntil: now.Add(time.Minute)}
		if err := st.Reserve(ctx, r, bundler.Budgets{}, now); err != nil {
			t.Fatalf("a new account's first approval: %v", err)
		}
		if err := st.Reserve(ctx, r, bundler.Budgets{}, now); err != nil {
			t.Fatalf("the same approval again: %v", err)
		}
		next := r
		next.ID, next.Nonce = common.Hash{2}, big.NewInt(1)
		if err := st.Reserve(ctx, next, bundler.Budgets{}, now); !errors.Is(err, bundler.ErrNeedNonce) {
			t.Fatalf("the account's next approval without its nonce: %v", err)
		}
		other := next
		other.ID, other.ProjectID = common.Hash{3}, "other"
		if err := st.Fund(ctx, "other", network, milliEther(10), "", now); err != nil {
			t.Fatal(err)
		}
		if err := st.Reserve(ctx, other, bundler.Budgets{}, now); err != nil {
			t.Fatalf("another project's approval for the account: %v", err)
		}
		next.NextNonce = big.NewInt(0)
		if err := st.Reserve(ctx, next, bundler.Budgets{}, now); err != nil {
			t.Fatalf("with its nonce: %v", err)
		}
		rows, _ := st.Report(ctx, now)
		for _, row := range rows {
			if row.ProjectID == "proj" && row.Reserved.Cmp(milliEther(2)) != 0 {
				t.Fatalf("reserved %s, want two approvals' worth", row.Reserved)
			}
		}
	})
}

// A mined bundle whose sponsored operations cannot be settled (a stored
// balance latchd cannot read) is still recorded: its operations included,
// and the loop bundling the next ones.
func TestService_BundleRecordedWhenSettlementFails(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	first, rerr := h.send(h.sponsoredOp())
	if rerr != nil {
		t.Fatal(rerr)
	}
	next := h.sponsoredOp() // approved while the balance reads
	if _, err := h.db.Exec(context.Background(), `UPDATE sponsor_balances SET spent = 'unreadable' WHERE project_id = ?`, "p1"); err != nil {
		t.Fatal(err)
	}
	h.run()
	h.waitStatus(first, bundler.StatusIncluded)
	second, rerr := h.send(next)
	if rerr != nil {
		t.Fatal(rerr)
	}
	h.waitStatus(second, bundler.StatusIncluded)
}
