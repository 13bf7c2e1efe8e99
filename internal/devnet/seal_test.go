package devnet

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/latchkit/latch/internal/poll"
)

// A burst of far more transactions than the seal loop's event buffer holds,
// sent in one batch, is all sealed: the pool's announcements never wait on a
// seal that waits on the pool.
func TestSealLoop_Burst(t *testing.T) {
	ctx := context.Background()
	c := shared.Chains()[1]
	rc, err := rpc.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	client := MustDial(t, c)
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := new(big.Int).SetUint64(c.ChainID)
	signer := types.LatestSignerForChainID(id)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), big.NewInt(params1Gwei))
	to := newRecipient(t)
	var batch []rpc.BatchElem
	want := map[common.Address]uint64{}
	for _, acc := range TestAccounts()[1:] {
		nonce, err := client.PendingNonceAt(ctx, acc.Address)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 64 {
			tx, err := types.SignNewTx(acc.Key, signer, &types.DynamicFeeTx{
				ChainID: id, Nonce: nonce + uint64(i), GasTipCap: big.NewInt(params1Gwei), GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: big.NewInt(1),
			})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := tx.MarshalBinary()
			batch = append(batch, rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(raw)}, Result: new(common.Hash)})
		}
		want[acc.Address] = nonce + 64
	}
	if err := rc.BatchCallContext(ctx, batch); err != nil {
		t.Fatal(err)
	}
	for _, e := range batch {
		if e.Error != nil {
			t.Fatal(e.Error)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for addr, nonce := range want {
		var got uint64
		if !poll.Until(time.Until(deadline), nil, func() bool {
			got, err = client.NonceAt(ctx, addr, nil)
			if err != nil {
				t.Fatal(err)
			}
			return got >= nonce
		}) {
			t.Fatalf("%s: nonce %d, want %d: the burst was not sealed", addr, got, nonce)
		}
	}
	if bal, _ := client.BalanceAt(ctx, to, nil); bal.Int64() != int64(len(batch)) {
		t.Fatalf("recipient got %s wei, want %d", bal, len(batch))
	}
}

const params1Gwei = 1_000_000_000

// The seal loop and Rollback sync the pool at the same time. The pool keeps
// one Sync waiter, so unserialised calls lose one and it never returns (the
// seal loop then stopped sealing, and closing the chain hung on it).
func TestSyncPool_Concurrent(t *testing.T) {
	c := shared.chains[0]
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if err := c.syncPool(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a pool sync never returned")
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
