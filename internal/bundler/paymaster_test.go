package bundler_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// milliEther is n/1000 ether in wei.
func milliEther(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e15)) }

// fundProject tops up projectID's sponsorship balance on the test network.
func (h *harness) fundProject(projectID string, wei *big.Int) {
	h.t.Helper()
	if err := h.st.Fund(context.Background(), projectID, network, wei, "test", time.Now()); err != nil {
		h.t.Fatal(err)
	}
}

// wantRefusal fails unless rerr has code and a message containing want.
func wantRefusal(t *testing.T, rerr *jsonrpc.Error, code int, want string) {
	t.Helper()
	if rerr == nil || rerr.Code != code || !strings.Contains(rerr.Message, want) {
		t.Fatalf("error = %+v, want code %d with %q", rerr, code, want)
	}
}

// wantBound fails unless rerr is a paymaster refusal whose data names bound.
func wantBound(t *testing.T, rerr *jsonrpc.Error, bound string) {
	t.Helper()
	if rerr == nil {
		t.Fatalf("approved; want the %s bound crossed", bound)
	}
	var data struct{ Bound, Limit, Value string }
	if err := json.Unmarshal(rerr.Data, &data); err != nil || data.Bound != bound || data.Limit == "" || data.Value == "" {
		t.Fatalf("error %+v (data %s), want the %s bound", rerr, rerr.Data, bound)
	}
	if !strings.Contains(rerr.Message, bound) {
		t.Fatalf("message %q does not name %s", rerr.Message, bound)
	}
}

// clock is the service's time.
func (h *harness) clock() time.Time {
	if h.now.IsZero() {
		return time.Now()
	}
	return h.now
}

// report returns projectID's row of the sponsorship report.
func (h *harness) report(projectID string) bundler.BalanceReport {
	h.t.Helper()
	rows, err := h.st.Report(context.Background(), h.clock())
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rows {
		if r.ProjectID == projectID && r.Network == network {
			return r
		}
	}
	h.t.Fatalf("no report row for %q in %+v", projectID, rows)
	return bundler.BalanceReport{}
}

func TestService_Paymaster(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, func(c *bundler.Config) { c.DefaultPolicy = bundler.Policy{} }) // off unless a project has a policy
		projectID := mustProject(t, db)
		other := mustProject(t, db)
		h.fundProject(projectID, milliEther(1000))
		h.fundProject(other, milliEther(1000))
		ctx := context.Background()
		setPolicy := func(id string, p bundler.Policy) {
			t.Helper()
			if err := h.st.SetPolicy(ctx, id, p, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		allowed := common.HexToAddress("0x00000000000000000000000000000000000a11ed")
		elsewhere := common.HexToAddress("0x0000000000000000000000000000000000000bad")

		t.Run("OffByDefault", func(t *testing.T) {
			op := h.op(h.newOwner(), nil, 0)
			wantCode(t, h.sponsor(op, projectID), bundler.CodePaymasterRejected)
			_, rerr := h.svc.PaymasterStubData(ctx, projectID, network, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
			wantCode(t, rerr, bundler.CodePaymasterRejected)
		})
		t.Run("Enabled", func(t *testing.T) {
			setPolicy(projectID, bundler.Policy{Enabled: true})
			op := h.op(h.newOwner(), nil, 0)
			if rerr := h.sponsor(op, projectID); rerr != nil {
				t.Fatal(rerr)
			}
			if op.Paymaster == nil || *op.Paymaster != chain.VerifyingPaymaster || len(op.PaymasterData) != bundler.PaymasterApprovalLength {
				t.Fatalf("paymaster %v data %x", op.Paymaster, op.PaymasterData)
			}
			// The approval is valid for ApprovalLifetime (120 s), no longer.
			validUntil := new(big.Int).SetBytes(op.PaymasterData[:6]).Int64()
			if d := time.Until(time.Unix(validUntil, 0)); d > bundler.DefaultApprovalLifetime || d < bundler.DefaultApprovalLifetime-5*time.Second {
				t.Fatalf("validUntil %d is %s from now", validUntil, d)
			}
			// The other project's policy is its own.
			wantCode(t, h.sponsor(h.op(h.newOwner(), nil, 0), other), bundler.CodePaymasterRejected)
		})
		t.Run("WrongChainOrEntryPoint", func(t *testing.T) {
			op := h.op(h.newOwner(), nil, 0)
			_, rerr := h.svc.PaymasterData(ctx, projectID, network, op, chain.EntryPoint, "0x1")
			wantCode(t, rerr, bundler.CodeInvalidFields)
			_, rerr = h.svc.PaymasterData(ctx, projectID, network, op, common.Address{1}, hexutil.EncodeUint64(chain.ChainID))
			wantCode(t, rerr, bundler.CodeInvalidFields)
		})
		t.Run("AllowedContracts", func(t *testing.T) {
			setPolicy(projectID, bundler.Policy{Enabled: true, AllowedContracts: []common.Address{allowed}})
			o := h.newOwner()
			if rerr := h.sponsor(h.op(o, &allowed, 0), projectID); rerr != nil {
				t.Fatalf("allowed target: %v", rerr)
			}
			wantCode(t, h.sponsor(h.op(o, &elsewhere, 0), projectID), bundler.CodePaymasterRejected)
			batch := h.op(o, nil, 0)
			batch.CallData, _ = accountABI.Pack("executeBatch", []common.Address{allowed, elsewhere}, []*big.Int{}, [][]byte{{}, {}})
			wantCode(t, h.sponsor(batch, projectID), bundler.CodePaymasterRejected)
			odd := h.op(o, nil, 0)
			odd.CallData = []byte{1, 2, 3, 4}
			wantCode(t, h.sponsor(odd, projectID), bundler.CodePaymasterRejected)
		})
		// The cap counts operations included today and approvals still
		// live, each sender and nonce once; an account's count is of its
		// own nonces below the one asked for.
		t.Run("AccountDailyCap", func(t *testing.T) {
			setPolicy(projectID, bundler.Policy{Enabled: true, AccountDailyCap: 2})
			o := h.newOwner()
			for seq := int64(0); seq < 2; seq++ {
				op := h.op(o, nil, 0)
				op.Nonce = big.NewInt(seq)
				if rerr := h.sponsor(op, projectID); rerr != nil {
					t.Fatalf("approval of nonce %d: %v", seq, rerr)
				}
			}
			third := h.op(o, nil, 0)
			third.Nonce = big.NewInt(2)
			wantRefusal(t, h.sponsor(third, projectID), bundler.CodeThrottled, "today's limit of 2 sponsored operations")
			// Nonce 0 again is the same operation slot: not a third.
			again := h.op(o, nil, 0)
			again.CallGasLimit++
			if rerr := h.sponsor(again, projectID); rerr != nil {
				t.Fatalf("nonce 0 asked again: %v", rerr)
			}
			if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), projectID); rerr != nil {
				t.Fatalf("another account: %v", rerr)
			}
			// Tomorrow (UTC) the approvals have long expired.
			h.now = time.Now().UTC().Truncate(24 * time.Hour).Add(24*time.Hour + time.Minute)
			defer func() { h.now = time.Time{} }()
			if rerr := h.sponsor(third, projectID); rerr != nil {
				t.Fatalf("next day: %v", rerr)
			}
		})
		t.Run("DailyCap", func(t *testing.T) {
			fresh := mustProject(t, db)
			h.fundProject(fresh, milliEther(1000))
			setPolicy(fresh, bundler.Policy{Enabled: true, DailyCap: 2})
			for i := 0; i < 2; i++ {
				if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), fresh); rerr != nil {
					t.Fatalf("approval %d: %v", i, rerr)
				}
			}
			wantRefusal(t, h.sponsor(h.op(h.newOwner(), nil, 0), fresh), bundler.CodeThrottled, "This project has reached today's limit of 2")
		})
		t.Run("CapUnderConcurrency", func(t *testing.T) {
			fresh := mustProject(t, db)
			h.fundProject(fresh, milliEther(1000))
			b := bundler.Budgets{Policy: bundler.Policy{Enabled: true, DailyCap: 3}}
			var wg sync.WaitGroup
			var recorded atomic.Int32
			for i := 0; i < 12; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := bundler.Reservation{ID: common.BigToHash(big.NewInt(int64(i + 1))), ProjectID: fresh, Network: network, Sender: common.Address{byte(i)},
						Nonce: new(big.Int), Amount: big.NewInt(1e15), ValidUntil: time.Now().Add(time.Minute)}
					err := h.st.Reserve(ctx, r, b, time.Now())
					if err == nil {
						recorded.Add(1)
					} else if _, ok := err.(*bundler.BudgetError); !ok {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if recorded.Load() != 3 {
				t.Fatalf("%d approvals recorded under a daily cap of 3", recorded.Load())
			}
		})
		t.Run("NoBalance", func(t *testing.T) {
			poor := mustProject(t, db)
			setPolicy(poor, bundler.Policy{Enabled: true})
			op := h.op(h.newOwner(), nil, 0)
			wantRefusal(t, h.sponsor(op, poor), bundler.CodePaymasterRejected, "no sponsorship balance left on "+network)
			_, rerr := h.svc.PaymasterStubData(ctx, poor, network, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
			wantRefusal(t, rerr, bundler.CodePaymasterRejected, "latchd sponsor fund")
		})
		t.Run("NegativeCapRefused", func(t *testing.T) {
			if err := h.st.SetPolicy(ctx, projectID, bundler.Policy{Enabled: true, DailyCap: -1}, time.Now()); err == nil {
				t.Fatal("a negative cap was stored")
			}
			if err := h.st.SetPolicy(ctx, projectID, bundler.Policy{Enabled: true, DailyBudget: big.NewInt(-1)}, time.Now()); err == nil {
				t.Fatal("a negative budget was stored")
			}
		})
		t.Run("PolicyRoundTrip", func(t *testing.T) {
			p := bundler.Policy{Enabled: true, AccountDailyCap: 3, DailyCap: 9, DailyBudget: milliEther(7), AccountDailyBudget: milliEther(1), RequireSession: true, AllowedContracts: []common.Address{allowed}}
			setPolicy(other, p)
			got, ok, err := h.st.Policy(ctx, other)
			if err != nil || !ok || got.DailyBudget.Cmp(p.DailyBudget) != 0 || got.AccountDailyBudget.Cmp(p.AccountDailyBudget) != 0 || !got.RequireSession || got.DailyCap != 9 || got.AccountDailyCap != 3 || len(got.AllowedContracts) != 1 {
				t.Fatalf("policy %+v, %v, %v", got, ok, err)
			}
			setPolicy(other, bundler.Policy{Enabled: true})
			if got, _, _ = h.st.Policy(ctx, other); got.DailyBudget != nil || got.RequireSession {
				t.Fatalf("policy without budgets read back as %+v", got)
			}
		})
	})
}

// Each bound of an approval: fees near the network's current ones, gas
// limits under the network's caps, preVerificationGas within 10% of
// latchd's, the paymaster's own limits, a nonce among the sender's next
// few, and the prefund cap. Each refusal is -32501 with a message that
// names the bound and data with its limit.
func TestService_PaymasterBounds(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
		c.Networks[0].Sponsor = bundler.SponsorLimits{MaxVerificationGas: 1_600_000, MaxCallGas: 300_000, MaxPreVerificationGas: 100_000, MaxPriorityFee: big.NewInt(1_500_000_000)}
	})
	ctx := context.Background()
	approve := func(op *bundler.UserOperation) *jsonrpc.Error {
		_, rerr := h.svc.PaymasterData(ctx, "p1", network, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
		return rerr
	}
	honest := func() *bundler.UserOperation {
		op := h.op(h.newOwner(), nil, 0)
		op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster)
		return op
	}
	if rerr := approve(honest()); rerr != nil {
		t.Fatalf("honest operation: %v", rerr)
	}
	var tip hexutil.Big
	if err := h.node.Call(ctx, &tip, "eth_maxPriorityFeePerGas"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		bound string
		mod   func(op *bundler.UserOperation)
	}{
		// The drain: a fee far above the network's, as high as the prefund cap allows.
		{"maxFeePerGas", func(op *bundler.UserOperation) { op.MaxFeePerGas = big.NewInt(25_000_000_000) }},
		{"maxPriorityFeePerGas", func(op *bundler.UserOperation) {
			op.MaxPriorityFeePerGas = big.NewInt(1_500_000_001) // above the ceiling, under twice the suggestion
			op.MaxFeePerGas = new(big.Int).Add(op.MaxPriorityFeePerGas, h.baseFee())
		}},
		{"verificationGasLimit", func(op *bundler.UserOperation) { op.VerificationGasLimit = 1_600_001 }},
		{"callGasLimit", func(op *bundler.UserOperation) { op.CallGasLimit = 300_001 }},
		{"preVerificationGas", func(op *bundler.UserOperation) { op.PreVerificationGas = op.PreVerificationGas * 111 / 100 }},
		{"preVerificationGas", func(op *bundler.UserOperation) { op.PreVerificationGas = op.PreVerificationGas * 9 / 10 }},
		{"paymasterVerificationGasLimit", func(op *bundler.UserOperation) {
			pm := chain.VerifyingPaymaster
			op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = &pm, 1_000_000, 50_000
		}},
		{"paymasterPostOpGasLimit", func(op *bundler.UserOperation) {
			pm := chain.VerifyingPaymaster
			op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = &pm, 100_000, 1_000_000
		}},
		{"nonce", func(op *bundler.UserOperation) { op.Nonce = big.NewInt(bundler.DefaultMaxPendingPerSender) }},
		{"nonce", func(op *bundler.UserOperation) { // key 1's sequence 4: its next is 0
			op.Nonce = new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(bundler.DefaultMaxPendingPerSender))
		}},
	} {
		t.Run(tt.bound, func(t *testing.T) {
			op := honest()
			if tt.bound == "nonce" { // the window applies once the account has an approval held
				if rerr := approve(op); rerr != nil {
					t.Fatal(rerr)
				}
			}
			tt.mod(op)
			if tt.bound != "preVerificationGas" { // what latchd computes follows the fields
				op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster)
			}
			wantBound(t, approve(op), tt.bound)
		})
	}
	t.Run("prefund", func(t *testing.T) {
		capped := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) { c.MaxSponsoredCost = big.NewInt(1e12) })
		op := capped.op(capped.newOwner(), nil, 0)
		wantBound(t, capped.sponsor(op, "p1"), "prefund")
	})
	// pm_getPaymasterStubData checks the fees already (the wallet then
	// knows before estimating), through the JSON-RPC door with its context.
	t.Run("StubFees", func(t *testing.T) {
		op := honest()
		op.MaxFeePerGas = big.NewInt(25_000_000_000)
		rerr := h.rpc("pm_getPaymasterStubData", nil, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID), map[string]any{})
		wantBound(t, rerr, "maxFeePerGas")
		rerr = h.rpc("pm_getPaymasterStubData", nil, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID), "not an object")
		wantCode(t, rerr, jsonrpc.CodeInvalidParams)
	})
}

// The message a wallet signs to bind its session to its smart account:
// the frame's smartAccount.test.ts holds the same vector.
func TestSessionProofMessage(t *testing.T) {
	got := bundler.SessionProofMessage(31337, common.HexToAddress("0x1111111111111111111111111111111111111111"), "session-token")
	want := "Latch sponsorship\nAccount: 0x1111111111111111111111111111111111111111\nChain: 31337\nSession: c101e911469c969171040b50d70543313cf968fdef5bacc780776f8fb399ab36"
	if got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}
