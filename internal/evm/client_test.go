package evm_test

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/internal/evm"
)

// fakeEth is the part of a node's eth namespace the tests call.
type fakeEth struct {
	calls    atomic.Int64
	sent     []byte
	estimate map[string]any
}

func (f *fakeEth) ChainId() hexutil.Uint64 { f.calls.Add(1); return 31337 }

func (f *fakeEth) Call(args map[string]any, block string) (hexutil.Bytes, error) {
	f.calls.Add(1)
	return nil, &revertError{}
}

func (f *fakeEth) GetTransactionCount(addr common.Address, block string) (hexutil.Uint64, error) {
	if block != "pending" {
		return 0, errors.New("want the pending count")
	}
	return 7, nil
}

func (f *fakeEth) EstimateGas(args map[string]any) (hexutil.Uint64, error) {
	f.estimate = args
	return 21_000, nil
}

func (f *fakeEth) SendRawTransaction(raw hexutil.Bytes) (common.Hash, error) {
	f.sent = raw
	return common.Hash{1}, nil
}

// revertError is a node's answer to a reverting eth_call.
type revertError struct{}

func (*revertError) Error() string  { return "execution reverted" }
func (*revertError) ErrorCode() int { return 3 }

func newNode(t *testing.T) (*rpc.Server, *fakeEth) {
	t.Helper()
	f := &fakeEth{}
	srv := rpc.NewServer()
	if err := srv.RegisterName("eth", f); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, f
}

func TestClient_Failover(t *testing.T) {
	node, f := newNode(t)
	up := httptest.NewServer(node)
	defer up.Close()
	var downHits atomic.Int64
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downHits.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()

	c, err := evm.NewClient([]string{down.URL, up.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var id hexutil.Uint64
	if err := c.Call(context.Background(), &id, "eth_chainId"); err != nil || id != 31337 {
		t.Fatalf("eth_chainId = %d, %v", id, err)
	}
	// The upstream that answered stays first.
	if err := c.Call(context.Background(), &id, "eth_chainId"); err != nil || downHits.Load() != 1 {
		t.Fatalf("second call: %v; the down upstream was asked %d times, want 1", err, downHits.Load())
	}
	// A node's own error (a revert) is an answer: returned as is, no failover.
	before := f.calls.Load()
	_, err = c.CallContract(context.Background(), common.Address{1}, []byte{1})
	if err == nil || !strings.Contains(err.Error(), "execution reverted") || downHits.Load() != 1 || f.calls.Load() != before+1 {
		t.Fatalf("reverting call: err = %v, down asked %d times", err, downHits.Load())
	}

	t.Run("ErrEveryUpstreamDown", func(t *testing.T) {
		c, err := evm.NewClient([]string{down.URL, down.URL})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		err = c.Call(context.Background(), &id, "eth_chainId")
		if err == nil || !strings.Contains(err.Error(), "upstream 1") || !strings.Contains(err.Error(), "upstream 2") {
			t.Fatalf("err = %v, want both upstreams' failures", err)
		}
	})
	t.Run("ErrNoUpstream", func(t *testing.T) {
		if _, err := evm.NewClient(nil); err == nil {
			t.Fatal("NewClient(nil): no error")
		}
	})
}

// An attached client reaches an in-process node and sends transactions.
func TestAttach(t *testing.T) {
	node, f := newNode(t)
	c := evm.Attach(rpc.DialInProc(node))
	defer c.Close()
	ctx := context.Background()

	from, to := common.Address{0xaa}, common.Address{0xbb}
	if n, err := c.PendingNonceAt(ctx, from); err != nil || n != 7 {
		t.Fatalf("PendingNonceAt = %d, %v", n, err)
	}
	gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Value: big.NewInt(5), Data: []byte{1, 2}})
	if err != nil || gas != 21_000 {
		t.Fatalf("EstimateGas = %d, %v", gas, err)
	}
	want := map[string]any{"from": strings.ToLower(from.Hex()), "to": strings.ToLower(to.Hex()), "value": "0x5", "input": "0x0102"}
	for k, v := range want {
		if got, _ := f.estimate[k].(string); strings.ToLower(got) != v {
			t.Errorf("eth_estimateGas %s = %v, want %v", k, f.estimate[k], v)
		}
	}
	if len(f.estimate) != len(want) {
		t.Errorf("eth_estimateGas args %v, want only %v", f.estimate, want)
	}

	key, _ := crypto.GenerateKey()
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(31337)), &types.DynamicFeeTx{ChainID: big.NewInt(31337), Nonce: 7, Gas: 21_000, To: &to, Value: big.NewInt(5)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var got types.Transaction
	if err := got.UnmarshalBinary(f.sent); err != nil || got.Hash() != tx.Hash() {
		t.Fatalf("sent %x (%v), want the signed transaction", f.sent, err)
	}

	// A node error comes back as the node gave it.
	_, err = c.CallContract(ctx, to, nil)
	var rpcErr rpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.ErrorCode() != 3 || err.Error() != "execution reverted" {
		t.Fatalf("reverting call on an attached client: %v", err)
	}
}
