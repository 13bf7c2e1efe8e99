package bundler_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/store/storetest"
)

// An operation whose traced validation read no state that can change (the
// embedded wallet's account, sponsored) is validated again before bundling
// by the bundle's eth_call alone; one whose validation read storage (here
// its own) is traced again, which catches the griefing of
// TestService_GriefingOperationCostsTheBundlerNothing.
func TestService_StaticValidationIsNotTracedAgain(t *testing.T) {
	node := &tracingNode{}
	h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
		node.Node = c.Networks[0].Node
		c.Networks[0].Node = node
	})
	h.run()
	hash, rerr := h.send(h.sponsoredOp())
	if rerr != nil {
		t.Fatal(rerr)
	}
	h.waitStatus(hash, bundler.StatusIncluded)
	if n := node.traces.Load(); n != 1 {
		t.Fatalf("%d traces for a static operation; want 1, when it was sent", n)
	}
	hash, rerr = h.send(h.rulesOp(h.rulesAccountAt(ruleNone, common.Address{})))
	if rerr != nil {
		t.Fatal(rerr)
	}
	h.waitStatus(hash, bundler.StatusIncluded)
	if n := node.traces.Load(); n != 3 {
		t.Fatalf("%d traces in all; want 3: the second operation's validation reads storage", n)
	}
}

// An EIP-7702 account's code can change: its owner delegates it elsewhere.
// Accepted while it delegates to a LatchSmartAccount (no storage, nothing
// that could change but the delegation), its operation is still traced
// again before bundling, and once the owner has delegated it to code that
// reads TIMESTAMP in validation, dropped for that.
func TestService_DelegatedSenderIsTracedAgain(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	owner, _ := crypto.GenerateKey()
	eoa, _ := crypto.GenerateKey()
	sender := crypto.PubkeyToAddress(eoa.PublicKey)
	account := h.deploy(contracts.MustLoad("LatchSmartAccount"), chain.EntryPoint, crypto.PubkeyToAddress(owner.PublicKey))
	h.delegate(eoa, account)

	op := h.rulesOp(sender)
	h.sign(op, owner)
	hash, rerr := h.send(op)
	if rerr != nil {
		t.Fatalf("a delegated account's operation: %+v", rerr)
	}
	h.delegate(eoa, h.rulesAccountAt(ruleTimestamp, common.Address{}))
	h.run()
	r := h.waitStatus(hash, bundler.StatusFailed)
	if !strings.Contains(r.Reason, "ERC-7562 OP-011: the account "+sender.Hex()+" used TIMESTAMP") {
		t.Fatalf("reason %q", r.Reason)
	}
}

// delegate makes eoa's code an EIP-7702 delegation to impl (a set-code
// transaction from a dev test account carrying eoa's authorization).
func (h *harness) delegate(eoa *ecdsa.PrivateKey, impl common.Address) {
	h.t.Helper()
	ctx := context.Background()
	var nonce hexutil.Uint64
	if err := h.node.Call(ctx, &nonce, "eth_getTransactionCount", crypto.PubkeyToAddress(eoa.PublicKey), "latest"); err != nil {
		h.t.Fatal(err)
	}
	auth, err := types.SignSetCode(eoa, types.SetCodeAuthorization{ChainID: *uint256.NewInt(chain.ChainID), Address: impl, Nonce: uint64(nonce)})
	if err != nil {
		h.t.Fatal(err)
	}
	acc := devnet.TestAccounts()[6]
	var from hexutil.Uint64
	if err := h.node.Call(ctx, &from, "eth_getTransactionCount", acc.Address, "pending"); err != nil {
		h.t.Fatal(err)
	}
	tx, err := types.SignNewTx(acc.Key, types.LatestSignerForChainID(new(big.Int).SetUint64(chain.ChainID)), &types.SetCodeTx{
		ChainID: uint256.NewInt(chain.ChainID), Nonce: uint64(from), GasTipCap: uint256.NewInt(1),
		GasFeeCap: uint256.MustFromBig(new(big.Int).Mul(h.baseFee(), big.NewInt(3))), Gas: 100_000,
		To: acc.Address, Value: new(uint256.Int), AuthList: []types.SetCodeAuthorization{auth},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.node.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	want := append([]byte{0xef, 0x01, 0x00}, impl[:]...)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var code hexutil.Bytes
		if err := h.node.Call(ctx, &code, "eth_getCode", crypto.PubkeyToAddress(eoa.PublicKey), "latest"); err != nil {
			h.t.Fatal(err)
		}
		if string(code) == string(want) {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("code %x, want the delegation %x", code, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
