package bundler_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// next is o's operation with nonce seq (key 0) after first, sending value
// wei to to: no factory (first deploys the account), sponsored and signed.
func (h *harness) next(o *owner, first *bundler.UserOperation, seq int64, to common.Address, value int64) *bundler.UserOperation {
	h.t.Helper()
	op := h.nextUnsponsored(o, first, seq, to, value)
	if rerr := h.sponsor(op, "p1"); rerr != nil {
		h.t.Fatal(rerr)
	}
	h.sign(op, o.key)
	return op
}

// nextUnsponsored is next paid by the account: for nonces beyond the
// sender's next MaxPendingPerSender, which the paymaster does not approve.
func (h *harness) nextUnsponsored(o *owner, first *bundler.UserOperation, seq int64, to common.Address, value int64) *bundler.UserOperation {
	h.t.Helper()
	op := first.Copy()
	op.Nonce = big.NewInt(seq)
	op.Factory, op.FactoryData = nil, nil
	op.Paymaster, op.PaymasterData, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = nil, nil, 0, 0
	op.CallData, _ = accountABI.Pack("execute", to, big.NewInt(value), []byte{})
	h.sign(op, o.key)
	return op
}

// A sender may have several operations pending: each is validated as if the
// earlier ones had been included (the nonce, and the account deployed by the
// first), a gap is refused with AA25, the limit per sender with -32504, and
// the loop bundles them in nonce order.
func TestService_SeveralPendingPerSender(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		o := h.newOwner()
		to := common.HexToAddress("0x00000000000000000000000000000000000b0b07")
		h.fund(o.account, big.NewInt(1e16))
		before := h.balance(to)
		first := h.op(o, &to, 1)
		if first.Factory == nil {
			t.Fatal("a new owner's first operation deploys the account")
		}
		h.sponsor(first, "p1")
		h.sign(first, o.key)
		h0, rerr := h.send(first)
		if rerr != nil {
			t.Fatal(rerr)
		}

		t.Run("FactoryAgainRefused", func(t *testing.T) {
			op := h.next(o, first, 1, to, 2)
			op.Factory, op.FactoryData = first.Factory, first.FactoryData
			h.sponsor(op, "p1")
			h.sign(op, o.key)
			_, rerr := h.send(op)
			wantCode(t, rerr, bundler.CodeInvalidFields)
			if !strings.Contains(rerr.Message, "deploys it") {
				t.Fatalf("message %q", rerr.Message)
			}
			h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		})

		// Nonce 1 follows the pending nonce 0, whose initCode deploys the
		// account: without both, its simulation fails (AA20, AA25).
		t.Run("EstimateFollowing", func(t *testing.T) {
			op := h.next(o, first, 1, to, 2)
			op.Signature = nil
			if _, rerr := h.svc.EstimateUserOperationGas(context.Background(), network, op, chain.EntryPoint); rerr != nil {
				t.Fatalf("estimate of nonce 1 after a pending nonce 0: %+v", rerr)
			}
		})
		ops := []*bundler.UserOperation{first}
		hashes := []common.Hash{h0}
		for seq := int64(1); seq <= 2; seq++ {
			op := h.next(o, first, seq, to, 1+seq)
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatalf("nonce %d after pending ones: %+v", seq, rerr)
			}
			ops, hashes = append(ops, op), append(hashes, hash)
		}

		t.Run("BadSignatureFollowing", func(t *testing.T) {
			op := h.next(o, first, 3, to, 9)
			op.Signature[5] ^= 0xff
			_, rerr := h.send(op)
			wantCode(t, rerr, bundler.CodeInvalidSignature)
		})
		t.Run("Gap", func(t *testing.T) {
			op := h.nextUnsponsored(o, first, 4, to, 9)
			_, rerr := h.send(op)
			wantCode(t, rerr, bundler.CodeSimulateValidation)
			if !strings.HasPrefix(rerr.Message, "AA25 invalid account nonce") || !strings.Contains(rerr.Message, "sequence number 3") {
				t.Fatalf("message %q", rerr.Message)
			}
			h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		})

		op3 := h.next(o, first, 3, to, 4)
		h3, rerr := h.send(op3)
		if rerr != nil {
			t.Fatal(rerr)
		}
		ops, hashes = append(ops, op3), append(hashes, h3)

		t.Run("LimitPerSender", func(t *testing.T) {
			op := h.nextUnsponsored(o, first, 4, to, 5)
			_, rerr := h.send(op)
			wantCode(t, rerr, bundler.CodeThrottled)
			if !strings.Contains(rerr.Message, "4 operations in the mempool") {
				t.Fatalf("message %q", rerr.Message)
			}
			h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		})
		// A replacement does not count against the limit.
		t.Run("ReplaceAtLimit", func(t *testing.T) {
			op := h.next(o, first, 3, to, 4)
			// 10% up: the least a replacement needs, within the paymaster's fee bounds.
			bump := func(v *big.Int) *big.Int { // ×1.1, rounded up
				up := new(big.Int).Mul(v, big.NewInt(11))
				return up.Add(up, big.NewInt(9)).Div(up, big.NewInt(10))
			}
			op.MaxFeePerGas, op.MaxPriorityFeePerGas = bump(op3.MaxFeePerGas), bump(op3.MaxPriorityFeePerGas)
			if rerr := h.sponsor(op, "p1"); rerr != nil {
				t.Fatal(rerr)
			}
			h.sign(op, o.key)
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatal(rerr)
			}
			hashes[3] = hash
		})

		h.run()
		var blocks []uint64
		for i, hash := range hashes {
			r := h.waitReceipt(hash)
			if !r.Success || r.Nonce.ToInt().Int64() != int64(i) {
				t.Fatalf("operation %d: receipt %+v", i, r)
			}
			rec := h.waitStatus(hash, bundler.StatusIncluded)
			blocks = append(blocks, rec.BlockNumber)
		}
		for i := 1; i < len(blocks); i++ {
			if blocks[i] < blocks[i-1] {
				t.Fatalf("included out of nonce order: blocks %v", blocks)
			}
		}
		if got := new(big.Int).Sub(h.balance(to), before); got.Int64() != 1+2+3+4 {
			t.Fatalf("recipient got %s, want 10", got)
		}
	})
}

func TestService_MaxPendingPerSender(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) { c.MaxPendingPerSender = 2 })
	o := h.newOwner()
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b08")
	first := h.op(o, &to, 0)
	h.sponsor(first, "p1")
	h.sign(first, o.key)
	if _, rerr := h.send(first); rerr != nil {
		t.Fatal(rerr)
	}
	if _, rerr := h.send(h.next(o, first, 1, to, 0)); rerr != nil {
		t.Fatal(rerr)
	}
	_, rerr := h.send(h.nextUnsponsored(o, first, 2, to, 0))
	wantCode(t, rerr, bundler.CodeThrottled)
	if !strings.Contains(rerr.Message, "2 operations in the mempool") {
		t.Fatalf("message %q", rerr.Message)
	}
	if _, err := bundler.New(bundler.Config{Store: h.st, MaxPendingPerSender: -1}); err == nil {
		t.Fatal("a negative MaxPendingPerSender was accepted")
	}
}

// The simulation overrides the EntryPoint's nonce slot of a sender and
// reads deposits where the canonical layout has them: if LatchEntryPoint's
// storage moves, this fails.
func TestEntryPointStorageLayout(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	h.run()
	o := h.newOwner()
	op := h.op(o, nil, 0)
	h.sponsor(op, "p1")
	h.sign(op, o.key)
	hash, rerr := h.send(op)
	if rerr != nil {
		t.Fatal(rerr)
	}
	h.waitReceipt(hash)
	slot := func(s common.Hash) *big.Int {
		var v hexutil.Bytes
		if err := h.node.Call(context.Background(), &v, "eth_getStorageAt", chain.EntryPoint, s, "latest"); err != nil {
			t.Fatal(err)
		}
		return new(big.Int).SetBytes(v)
	}
	if got := slot(bundler.NonceStorageSlot(o.account, big.NewInt(0))); got.Int64() != 1 {
		t.Fatalf("nonce slot of %s holds %s, want 1", o.account.Hex(), got)
	}
	if got := slot(bundler.NonceStorageSlot(o.account, big.NewInt(1))); got.Sign() != 0 {
		t.Fatalf("nonce slot of key 1 holds %s, want 0", got)
	}
	bd, _ := epABI.Pack("balanceOf", chain.VerifyingPaymaster)
	out, err := h.node.CallContract(context.Background(), chain.EntryPoint, bd)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := slot(bundler.DepositStorageSlot(chain.VerifyingPaymaster)), new(big.Int).SetBytes(out); got.Cmp(want) != 0 || want.Sign() == 0 {
		t.Fatalf("deposit slot holds %s, balanceOf %s", got, want)
	}
}

// When a sender's earlier operation fails in its bundle, its later ones
// cannot follow it: they are dropped with the EntryPoint's reason (here
// AA20: the failed one was to deploy the account), so nothing is stuck in
// the mempool.
func TestService_FailedOperationHoldsItsFollowers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, func(c *bundler.Config) { c.ApprovalLifetime = 32 * time.Second })
		o := h.newOwner()
		to := common.HexToAddress("0x00000000000000000000000000000000000b0b09")
		// The first operation's approval passes the 30 s margin when sent,
		// and is dropped when bundled (as in TestService_BundleDropsFailingOperation).
		h.now = time.Now().Add(-30 * time.Second)
		first := h.op(o, &to, 0)
		h.sponsor(first, "p1")
		h.sign(first, o.key)
		h0, rerr := h.send(first)
		if rerr != nil {
			t.Fatal(rerr)
		}
		// The follower's approval is made an hour ahead: it holds however far
		// the dev chain's clock has run ahead of ours (a block a second at least).
		h.now = time.Now().Add(time.Hour)
		h1, rerr := h.send(h.next(o, first, 1, to, 0))
		if rerr != nil {
			t.Fatal(rerr)
		}
		h.now = time.Time{}
		h.run()
		if r := h.waitStatus(h0, bundler.StatusFailed); !strings.Contains(r.Reason, "AA32") {
			t.Fatalf("first: reason %q", r.Reason)
		}
		if r := h.waitStatus(h1, bundler.StatusFailed); !strings.Contains(r.Reason, "AA20 account not deployed") {
			t.Fatalf("follower: reason %q", r.Reason)
		}
	})
}

// The per-sender limit is counted in Add's transaction: concurrent sends
// cannot pass it.
func TestStore_AddLimitPerSender(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st := bundler.NewStore(db)
		sender := common.Address{0x5e, 0x1d}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, tooMany := 0, 0
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				op := &bundler.UserOperation{Sender: sender, Nonce: big.NewInt(int64(i)), CallData: []byte{}, MaxFeePerGas: big.NewInt(1), MaxPriorityFeePerGas: big.NewInt(1), Signature: []byte{1}}
				rec := &bundler.Record{Hash: common.Hash{byte(i + 1)}, Network: network, EntryPoint: chain.EntryPoint, ProjectID: "p1", Op: op, CreatedAt: time.Now()}
				err := st.Add(context.Background(), rec, nil, 4, nil)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, bundler.ErrTooManyPending):
					tooMany++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok != 4 || tooMany != 4 {
			t.Fatalf("%d added, %d refused; want 4 and 4", ok, tooMany)
		}
	})
}
