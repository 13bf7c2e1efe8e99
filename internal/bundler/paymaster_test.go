package bundler_test

import (
	"context"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestService_Paymaster(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, func(c *bundler.Config) { c.DefaultPolicy = bundler.Policy{} }) // off unless a project has a policy
		projectID := mustProject(t, db)
		other := mustProject(t, db)
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
			if op.Paymaster == nil || *op.Paymaster != chain.VerifyingPaymaster || len(op.PaymasterData) != 12+65 {
				t.Fatalf("paymaster %v data %x", op.Paymaster, op.PaymasterData)
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
		t.Run("AccountDailyCap", func(t *testing.T) {
			setPolicy(projectID, bundler.Policy{Enabled: true, AccountDailyCap: 2})
			o := h.newOwner()
			for i := 0; i < 2; i++ {
				op := h.op(o, nil, 0)
				op.CallGasLimit += uint64(i) // a different approval each time
				if rerr := h.sponsor(op, projectID); rerr != nil {
					t.Fatalf("approval %d: %v", i, rerr)
				}
			}
			wantCode(t, h.sponsor(h.op(o, nil, 0), projectID), bundler.CodeThrottled)
			_, rerr := h.svc.PaymasterStubData(ctx, projectID, network, h.op(o, nil, 0), chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
			wantCode(t, rerr, bundler.CodeThrottled)
			if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), projectID); rerr != nil {
				t.Fatalf("another account: %v", rerr)
			}
			// Tomorrow (UTC) the count starts again.
			h.now = time.Now().UTC().Truncate(24 * time.Hour).Add(24*time.Hour + time.Minute)
			defer func() { h.now = time.Time{} }()
			if rerr := h.sponsor(h.op(o, nil, 0), projectID); rerr != nil {
				t.Fatalf("next day: %v", rerr)
			}
		})
		t.Run("DailyCap", func(t *testing.T) {
			fresh := mustProject(t, db)
			setPolicy(fresh, bundler.Policy{Enabled: true, DailyCap: 2})
			for i := 0; i < 2; i++ {
				if rerr := h.sponsor(h.op(h.newOwner(), nil, 0), fresh); rerr != nil {
					t.Fatalf("approval %d: %v", i, rerr)
				}
			}
			wantCode(t, h.sponsor(h.op(h.newOwner(), nil, 0), fresh), bundler.CodeThrottled)
		})
		t.Run("CapUnderConcurrency", func(t *testing.T) {
			fresh := mustProject(t, db)
			p := bundler.Policy{Enabled: true, DailyCap: 3}
			var wg sync.WaitGroup
			var recorded atomic.Int32
			for i := 0; i < 12; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ok, err := h.st.Sponsor(ctx, common.BigToHash(big.NewInt(int64(i+1))), fresh, network, common.Address{byte(i)}, p, time.Now())
					if err != nil {
						t.Error(err)
					}
					if ok {
						recorded.Add(1)
					}
				}()
			}
			wg.Wait()
			if recorded.Load() != 3 {
				t.Fatalf("%d approvals recorded under a daily cap of 3", recorded.Load())
			}
		})
		t.Run("CostBound", func(t *testing.T) {
			setPolicy(projectID, bundler.Policy{Enabled: true})
			op := h.op(h.newOwner(), nil, 0)
			op.MaxFeePerGas = big.NewInt(1e13) // 10,000 gwei: two million gas cost 20 ether
			op.MaxPriorityFeePerGas = big.NewInt(1e13)
			rerr := h.sponsor(op, projectID)
			wantCode(t, rerr, bundler.CodePaymasterRejected)
		})
		t.Run("NegativeCapRefused", func(t *testing.T) {
			if err := h.st.SetPolicy(ctx, projectID, bundler.Policy{Enabled: true, DailyCap: -1}, time.Now()); err == nil {
				t.Fatal("a negative cap was stored")
			}
		})
	})
}
