package bundler_test

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// A sponsored first operation deploys the account and sends ether from it;
// the owner's EOA pays nothing; the receipt comes from the EntryPoint's events.
func TestService_SendUserOperation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		h.run()
		t.Run("OK", func(t *testing.T) {
			o := h.newOwner()
			h.fund(o.account, big.NewInt(1e16)) // the ether it sends; gas is the paymaster's
			to := common.HexToAddress("0x00000000000000000000000000000000000b0b01")
			before := h.balance(to)
			op := h.op(o, &to, 1e15)
			if rerr := h.sponsor(op, "p1"); rerr != nil {
				t.Fatal(rerr)
			}
			h.sign(op, o.key)
			var hash common.Hash
			if rerr := h.rpc("eth_sendUserOperation", &hash, op, chain.EntryPoint); rerr != nil {
				t.Fatal(rerr)
			}
			if hash != op.Hash(chain.EntryPoint, chain.ChainID) {
				t.Fatalf("hash %s, want %s", hash, op.Hash(chain.EntryPoint, chain.ChainID))
			}
			r := h.waitReceipt(hash)
			if !r.Success || r.Sender != o.account || r.Paymaster != chain.VerifyingPaymaster || r.ActualGasCost.ToInt().Sign() == 0 {
				t.Fatalf("receipt %+v", r)
			}
			var txr struct {
				TransactionHash common.Hash `json:"transactionHash"`
			}
			json.Unmarshal(r.Receipt, &txr)
			if got := new(big.Int).Sub(h.balance(to), before); got.Cmp(big.NewInt(1e15)) != 0 {
				t.Fatalf("recipient got %s", got)
			}
			if got := h.balance(o.account); got.Cmp(big.NewInt(9e15)) != 0 {
				t.Fatalf("account holds %s, want 9e15: the account paid gas", got)
			}
			if h.balance(crypto.PubkeyToAddress(o.key.PublicKey)).Sign() != 0 {
				t.Fatal("the owner's EOA holds ether")
			}
			var by bundler.OperationByHash
			if rerr := h.rpc("eth_getUserOperationByHash", &by, hash); rerr != nil {
				t.Fatal(rerr)
			}
			if by.Status != bundler.StatusIncluded || by.TransactionHash == nil || *by.TransactionHash != txr.TransactionHash || by.UserOperation.Sender != o.account {
				t.Fatalf("by hash %+v", by)
			}
		})
		t.Run("AccountPays", func(t *testing.T) {
			o := h.newOwner()
			h.fund(o.account, big.NewInt(1e18))
			op := h.op(o, nil, 0)
			h.sign(op, o.key)
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatal(rerr)
			}
			r := h.waitReceipt(hash)
			if !r.Success || r.Paymaster != (common.Address{}) {
				t.Fatalf("receipt %+v", r)
			}
			if h.balance(o.account).Cmp(big.NewInt(1e18)) >= 0 {
				t.Fatal("the account did not pay for its operation")
			}
		})
		t.Run("RevertingCall", func(t *testing.T) {
			o := h.newOwner()
			op := h.op(o, nil, 0)
			op.CallData, _ = accountABI.Pack("execute", chain.EntryPoint, big.NewInt(0), []byte{0xde, 0xad, 0xbe, 0xef})
			h.sponsor(op, "p1")
			h.sign(op, o.key)
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatal(rerr)
			}
			r := h.waitReceipt(hash)
			if r.Success {
				t.Fatalf("receipt %+v, want success false", r)
			}
		})
		t.Run("UnknownHash", func(t *testing.T) {
			var out json.RawMessage
			if rerr := h.rpc("eth_getUserOperationReceipt", &out, common.Hash{1}); rerr != nil || string(out) != "null" {
				t.Fatalf("receipt of an unknown hash: %s, %v", out, rerr)
			}
		})
		t.Run("SupportedEntryPointsAndChainID", func(t *testing.T) {
			var eps []common.Address
			var id hexutil.Uint64
			if h.rpc("eth_supportedEntryPoints", &eps) != nil || len(eps) != 1 || eps[0] != chain.EntryPoint {
				t.Fatalf("eth_supportedEntryPoints = %v", eps)
			}
			// eth_chainId is the node's answer, through the proxy and its cache: the bundler leaves it alone.
			if h.svc.Handles(network, "eth_chainId") || h.rpc("eth_chainId", &id) == nil {
				t.Fatalf("the bundler answers eth_chainId (%d)", id)
			}
		})
	})
}

// Refused operations get ERC-7769's codes and leave nothing in the mempool.
func TestService_SendUserOperation_Refused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		signed := func(mod func(op *bundler.UserOperation)) *bundler.UserOperation {
			o := h.newOwner()
			op := h.op(o, nil, 0)
			h.sponsor(op, "p1")
			if mod != nil {
				mod(op)
			}
			h.sign(op, o.key)
			return op
		}
		for _, tt := range []struct {
			name string
			op   func() *bundler.UserOperation
			ep   common.Address
			code int
			msg  string
		}{
			{"WrongEntryPoint", func() *bundler.UserOperation { return signed(nil) }, common.HexToAddress("0x0000000071727De22E5E9d8BAf0edAc6f37da032"), bundler.CodeInvalidFields, "is not supported"},
			{"BadSignature", func() *bundler.UserOperation {
				op := signed(nil)
				k, _ := crypto.GenerateKey()
				h.sign(op, k)
				return op
			}, chain.EntryPoint, bundler.CodeInvalidSignature, "signature"},
			{"BelowBaseFee", func() *bundler.UserOperation {
				return signed(func(op *bundler.UserOperation) {
					op.MaxFeePerGas, op.MaxPriorityFeePerGas = big.NewInt(2), big.NewInt(1)
				})
			}, chain.EntryPoint, bundler.CodeInvalidFields, "base fee"},
			{"NoTip", func() *bundler.UserOperation {
				return signed(func(op *bundler.UserOperation) { op.MaxPriorityFeePerGas = big.NewInt(0) })
			}, chain.EntryPoint, bundler.CodeInvalidFields, "maxPriorityFeePerGas"},
			{"LowPreVerificationGas", func() *bundler.UserOperation {
				return signed(func(op *bundler.UserOperation) { op.PreVerificationGas = 21_000 })
			}, chain.EntryPoint, bundler.CodeInvalidFields, "preVerificationGas"},
			{"VerificationGasTooHigh", func() *bundler.UserOperation {
				return signed(func(op *bundler.UserOperation) { op.VerificationGasLimit = 6_000_000 })
			}, chain.EntryPoint, bundler.CodeInvalidFields, "verificationGasLimit"},
			{"NoPrefund", func() *bundler.UserOperation {
				o := h.newOwner()
				op := h.op(o, nil, 0)
				h.sign(op, o.key)
				return op
			}, chain.EntryPoint, bundler.CodeSimulateValidation, "AA21 didn't pay prefund"},
			{"WrongNonce", func() *bundler.UserOperation {
				return signed(func(op *bundler.UserOperation) { op.Nonce = big.NewInt(3) })
			}, chain.EntryPoint, bundler.CodeSimulateValidation, "AA25 invalid account nonce"},
			{"ExpiredPaymasterApproval", func() *bundler.UserOperation {
				o := h.newOwner()
				op := h.op(o, nil, 0)
				real := time.Now()
				h.now = real.Add(-time.Hour) // the approval is made an hour ago, valid ten minutes
				h.sponsor(op, "p1")
				h.now = time.Time{}
				h.sign(op, o.key)
				return op
			}, chain.EntryPoint, bundler.CodeOutOfTimeRange, "expired"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				op := tt.op()
				hash, rerr := h.svc.SendUserOperation(context.Background(), "p1", network, op, tt.ep)
				wantCode(t, rerr, tt.code)
				if !strings.Contains(rerr.Message, tt.msg) {
					t.Fatalf("message %q, want %q in it", rerr.Message, tt.msg)
				}
				if hash != (common.Hash{}) {
					t.Fatal("a hash for a refused operation")
				}
				h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
			})
		}
		t.Run("Malformed", func(t *testing.T) {
			for _, params := range []string{`[{"sender":"0x01"},"` + chain.EntryPoint.Hex() + `"]`, `[]`, `[{}, "` + chain.EntryPoint.Hex() + `"]`} {
				var raw []any
				json.Unmarshal([]byte(params), &raw)
				rerr := h.rpc("eth_sendUserOperation", nil, raw...)
				if rerr == nil || (rerr.Code != bundler.CodeInvalidFields && rerr.Code != -32602) {
					t.Fatalf("%s: %+v", params, rerr)
				}
			}
			pending, _ := h.st.ByStatus(context.Background(), network, bundler.StatusPending, 10)
			if len(pending) != 0 {
				t.Fatalf("stored %d operations", len(pending))
			}
		})
	})
}

// Without the loop running, operations stay pending: a second one with the
// same nonce must raise both fees by 10% to replace the first.
func TestService_Replacement(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		o := h.newOwner()
		first := h.op(o, nil, 0)
		h.sponsor(first, "p1")
		h.sign(first, o.key)
		h1, rerr := h.send(first)
		if rerr != nil {
			t.Fatal(rerr)
		}
		t.Run("Duplicate", func(t *testing.T) {
			_, rerr := h.send(first)
			wantCode(t, rerr, bundler.CodeInvalidFields)
		})
		t.Run("Underpriced", func(t *testing.T) {
			op := h.op(o, nil, 0)
			op.MaxFeePerGas = new(big.Int).Add(first.MaxFeePerGas, big.NewInt(1))
			op.MaxPriorityFeePerGas = new(big.Int).Add(first.MaxPriorityFeePerGas, big.NewInt(1))
			h.sponsor(op, "p1")
			h.sign(op, o.key)
			_, rerr := h.send(op)
			wantCode(t, rerr, bundler.CodeInvalidFields)
			if !strings.Contains(rerr.Message, "replacement underpriced") {
				t.Fatalf("message %q", rerr.Message)
			}
			h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		})
		t.Run("Replaced", func(t *testing.T) {
			op := h.op(o, nil, 0)
			tenPercentUp := func(x *big.Int) *big.Int { // rounded up: exactly the least accepted
				return new(big.Int).Div(new(big.Int).Add(new(big.Int).Mul(x, big.NewInt(11)), big.NewInt(9)), big.NewInt(10))
			}
			op.MaxFeePerGas, op.MaxPriorityFeePerGas = tenPercentUp(first.MaxFeePerGas), tenPercentUp(first.MaxPriorityFeePerGas)
			h.sponsor(op, "p1")
			h.sign(op, o.key)
			h2, rerr := h.send(op)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if r, _ := h.st.Get(context.Background(), h1); r.Status != bundler.StatusReplaced {
				t.Fatalf("first is %s, want replaced", r.Status)
			}
			// A new service on the same store (a restart) bundles what is pending.
			h2svc := newHarness(t, db, nil)
			h2svc.run()
			h2svc.waitStatus(h2, bundler.StatusIncluded)
			if r := h2svc.waitReceipt(h2); !r.Success {
				t.Fatalf("receipt %+v", r)
			}
		})
	})
}

// An operation valid when accepted but failing when bundled is dropped with
// the EntryPoint's reason and the bundle goes on without it.
func TestService_BundleDropsFailingOperation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, func(c *bundler.Config) { c.ApprovalLifetime = 32 * time.Second })
		good, bad := h.newOwner(), h.newOwner()
		gop := h.op(good, nil, 0)
		// The good one's approval is made an hour ahead: it holds however far
		// the dev chain's clock has run ahead of ours (a block a second at least).
		h.now = time.Now().Add(time.Hour)
		h.sponsor(gop, "p1")
		h.sign(gop, good.key)
		// The approval of bad is made with a clock 30 s back and lasts 32 s:
		// it passes the 30 s margin when sent, and is dropped when bundled,
		// since it ends within 12 s.
		h.now = time.Now().Add(-30 * time.Second)
		bop := h.op(bad, nil, 0)
		h.sponsor(bop, "p1")
		h.sign(bop, bad.key)
		bh, rerr := h.send(bop)
		h.now = time.Time{}
		if rerr != nil {
			t.Fatal(rerr)
		}
		gh, rerr := h.send(gop)
		if rerr != nil {
			t.Fatal(rerr)
		}
		h.run()
		r := h.waitStatus(bh, bundler.StatusFailed)
		if !strings.Contains(r.Reason, "AA32 paymaster expired or not due") {
			t.Fatalf("reason %q", r.Reason)
		}
		h.waitStatus(gh, bundler.StatusIncluded)
		var by bundler.OperationByHash
		h.rpc("eth_getUserOperationByHash", &by, bh)
		if by.Status != bundler.StatusFailed || by.Reason == "" || by.TransactionHash != nil {
			t.Fatalf("failed operation by hash: %+v", by)
		}
	})
}

func TestService_EstimateUserOperationGas(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	h.run()
	o := h.newOwner()
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b02")
	h.fund(o.account, big.NewInt(1e15))
	op := h.op(o, &to, 1e14)
	op.Signature = nil
	var stub bundler.PaymasterStub
	if rerr := h.rpc("pm_getPaymasterStubData", &stub, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID), map[string]any{}); rerr != nil {
		t.Fatal(rerr)
	}
	pm := stub.Paymaster
	op.Paymaster, op.PaymasterData = &pm, stub.PaymasterData
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(stub.PaymasterVerificationGasLimit), uint64(stub.PaymasterPostOpGasLimit)
	var est bundler.GasEstimate
	if rerr := h.rpc("eth_estimateUserOperationGas", &est, op, chain.EntryPoint); rerr != nil {
		t.Fatal(rerr)
	}
	if est.VerificationGasLimit < 100_000 || est.CallGasLimit < 21_000 || est.PreVerificationGas < 40_000 || est.PaymasterPostOpGasLimit == nil {
		t.Fatalf("estimate %+v", est)
	}
	// The estimate is enough: the operation built from it is included.
	op.VerificationGasLimit, op.CallGasLimit, op.PreVerificationGas = uint64(est.VerificationGasLimit), uint64(est.CallGasLimit), uint64(est.PreVerificationGas)
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(*est.PaymasterVerificationGasLimit), uint64(*est.PaymasterPostOpGasLimit)
	if rerr := h.sponsor(op, "p1"); rerr != nil {
		t.Fatal(rerr)
	}
	h.sign(op, o.key)
	hash, rerr := h.send(op)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if r := h.waitReceipt(hash); !r.Success {
		t.Fatalf("receipt %+v", r)
	}

	t.Run("Reverts", func(t *testing.T) {
		op := h.op(o, nil, 0)
		op.CallData, _ = accountABI.Pack("execute", chain.EntryPoint, big.NewInt(0), []byte{0xde, 0xad, 0xbe, 0xef})
		wantCode(t, h.rpc("eth_estimateUserOperationGas", nil, op, chain.EntryPoint), bundler.CodeExecutionReverted)
	})
	t.Run("StateOverrideRefused", func(t *testing.T) {
		op := h.op(o, nil, 0)
		wantCode(t, h.rpc("eth_estimateUserOperationGas", nil, op, chain.EntryPoint, map[string]any{"0x01": map[string]any{}}), -32602)
	})
}

// Nodes sharing a Postgres database: one bundles a network, the others only
// fill the mempool; when the leader stops, another takes over.
func TestService_OneBundlerPerNetwork(t *testing.T) {
	url := os.Getenv("LATCH_TEST_POSTGRES")
	if url == "" {
		t.Skip("LATCH_TEST_POSTGRES not set")
	}
	db := storetest.MustOpenPostgres(t)
	a, b := newHarness(t, db, nil), newHarness(t, db, nil)
	ctx := context.Background()
	if !a.svc.Leads(ctx, network) {
		t.Fatal("the first node does not lead")
	}
	if b.svc.Leads(ctx, network) {
		t.Fatal("two nodes lead the same network")
	}
	// b accepts; a's loop bundles.
	a.run()
	o := b.newOwner()
	op := b.op(o, nil, 0)
	b.sponsor(op, "p1")
	b.sign(op, o.key)
	hash, rerr := b.send(op)
	if rerr != nil {
		t.Fatal(rerr)
	}
	b.waitStatus(hash, bundler.StatusIncluded)
	a.svc.Close()
	if !b.svc.Leads(ctx, network) {
		t.Fatal("the second node does not take over")
	}
}
