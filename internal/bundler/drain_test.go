package bundler_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The paymaster drain of issue 33, end to end on the dev chain, with only
// a public project id: fresh counterfactual accounts ask for approvals,
// and the attacker submits handleOps itself with its own beneficiary (the
// EntryPoint pays the beneficiary each operation's gas at the
// operation's fee, from the paymaster's deposit). latchd's approvals
// name its bundler key, so only its own bundles can use them.
func TestPaymaster_Drain(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	h.run() // the watcher settles what others bundle
	p := mustProject(t, h.db)
	h.fundProject(p, milliEther(1000))
	ctx := context.Background()
	chainID := hexutil.EncodeUint64(chain.ChainID)

	// The attack as filed: a fee chosen so the prefund sits just under the
	// 0.05 ether cap (the effective price is the fee: tip = fee cap).
	t.Run("InflatedFeeRefused", func(t *testing.T) {
		for i := 0; i < 5; i++ {
			op := h.op(h.newOwner(), nil, 0)
			op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster)
			gas := op.VerificationGasLimit + op.CallGasLimit + op.PreVerificationGas + 150_000
			fee := new(big.Int).Div(new(big.Int).Sub(bundler.DefaultMaxSponsoredCost, big.NewInt(1e14)), new(big.Int).SetUint64(gas))
			op.MaxFeePerGas, op.MaxPriorityFeePerGas = fee, fee
			_, rerr := h.svc.PaymasterData(ctx, p, network, op, chain.EntryPoint, chainID)
			if rerr == nil {
				t.Fatalf("approval %d at %s wei per gas (prefund under the cap) was signed", i, fee)
			}
			wantBound(t, rerr, "maxPriorityFeePerGas")
		}
		if r := h.report(p); r.Reserved.Sign() != 0 {
			t.Fatalf("refused approvals hold %s", r.Reserved)
		}
	})

	// At the most the bounds allow (fees, gas limits, preVerificationGas),
	// the attacker bundles five fresh accounts' approved operations
	// itself with its own beneficiary, paying the fees they carry. The
	// approvals name latchd's bundler key, so the paymaster fails them in
	// the attacker's transaction (AA34), which reverts: its beneficiary
	// receives nothing. (Before approvals named a bundler, it received
	// 1.11 times the gas the attacker paid.) latchd's bundler then
	// includes the same operations, and the project is charged what they
	// cost.
	t.Run("HonestFee", func(t *testing.T) {
		b := h.approvedAtBounds(p, 5)
		attacker := devnet.TestAccounts()[7]
		key, _ := crypto.GenerateKey()
		beneficiary := crypto.PubkeyToAddress(key.PublicKey) // holds nothing before
		rcpt := h.handleOps(attacker, b.packed(), beneficiary, b.tip, b.feeCap, b.gasLimit)
		price := rcpt.EffectiveGasPrice.ToInt()
		paid := new(big.Int).Mul(new(big.Int).SetUint64(uint64(rcpt.GasUsed)), price)
		received := h.balance(beneficiary)
		t.Logf("handleOps status %d: the attacker's beneficiary received %s wei; its transaction's gas cost %s wei (%d gas at %s wei)", rcpt.Status, received, paid, rcpt.GasUsed, price)
		if paid.Sign() == 0 || received.Cmp(paid) >= 0 {
			t.Fatalf("the attacker's beneficiary received %s wei, not less than the %s wei of gas it paid", received, paid)
		}
		if rcpt.Status != 0 {
			t.Fatalf("the attacker's handleOps succeeded: %+v", rcpt)
		}
		// Why: each approval names latchd's bundler, and the paymaster
		// fails it in anyone else's transaction.
		if reason := h.handleOpsReverts(attacker.Address, b.packed(), beneficiary); reason != "AA34 signature error" {
			t.Fatalf("the attacker's handleOps reverts with %q, want AA34 signature error", reason)
		}
		for i, op := range b.ops {
			if got := common.BytesToAddress(op.PaymasterData[12:32]); got != h.bundlerAddress() {
				t.Fatalf("approval %d is for bundler %s, want latchd's %s", i, got, h.bundlerAddress())
			}
		}
		// The approvals still serve their purpose: latchd's bundler
		// includes the operations, and the project is charged their
		// actualGasCost.
		spent := new(big.Int)
		var hashes []common.Hash
		for i, op := range b.ops {
			hash, rerr := h.send(op)
			if rerr != nil {
				t.Fatalf("latchd's bundler refused operation %d: %+v", i, rerr)
			}
			hashes = append(hashes, hash)
		}
		for _, hash := range hashes {
			r := h.waitReceipt(hash)
			if !r.Success || r.Paymaster != chain.VerifyingPaymaster {
				t.Fatalf("receipt %+v", r)
			}
			spent.Add(spent, r.ActualGasCost.ToInt())
		}
		h.waitReport(p, spent, 5)
	})
}

// With --sponsor-any-bundler, approvals name no bundler and the residual
// is back: the attacker's own bundle of approvals at the bounds succeeds
// and pays its beneficiary more than the gas it cost, up to what ERC-4337
// pays any bundler (the 10% charge on unused call and postOp gas,
// preVerificationGas for overheads a bundle pays once), which the gas caps
// bound. It is charged to the project, settled from the chain's events
// although latchd did not bundle it.
func TestPaymaster_DrainAnyBundler(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) { c.Sponsorship.AnyBundler = true })
	h.run() // the watcher settles what others bundle
	p := mustProject(t, h.db)
	h.fundProject(p, milliEther(1000))
	b := h.approvedAtBounds(p, 5)
	for i, op := range b.ops {
		if got := common.BytesToAddress(op.PaymasterData[12:32]); got != (common.Address{}) {
			t.Fatalf("approval %d is for bundler %s, want any (zero)", i, got)
		}
	}
	key, _ := crypto.GenerateKey()
	beneficiary := crypto.PubkeyToAddress(key.PublicKey)
	rcpt := h.handleOps(devnet.TestAccounts()[7], b.packed(), beneficiary, b.tip, b.feeCap, b.gasLimit)
	if rcpt.Status != 1 {
		t.Fatalf("handleOps reverted: %+v", rcpt)
	}
	price := rcpt.EffectiveGasPrice.ToInt()
	paid := new(big.Int).Mul(new(big.Int).SetUint64(uint64(rcpt.GasUsed)), price)
	received := h.balance(beneficiary)
	gain := new(big.Int).Sub(received, paid)
	t.Logf("beneficiary received %s wei for a bundle whose gas cost %s wei (%d gas at %s wei): net %s wei", received, paid, rcpt.GasUsed, price, gain)
	if received.Cmp(paid) <= 0 {
		t.Fatalf("the beneficiary received %s wei, no more than the %s wei of gas: approvals for any bundler should pay whoever bundles them", received, paid)
	}
	if gain.Cmp(new(big.Int).Mul(new(big.Int).SetUint64(b.conceded), price)) > 0 {
		t.Fatalf("the attacker gained %s wei net, more than the %d gas the bounds concede", gain, b.conceded)
	}
	h.waitReport(p, received, 5)
}

// atBounds are approved operations at the most the sponsorship bounds
// allow, and the fees and gas of a handleOps that bundles them.
type atBounds struct {
	ops         []*bundler.UserOperation
	tip, feeCap *big.Int
	gasLimit    uint64
	// conceded is the gas ERC-4337 pays a bundler beyond what it spends:
	// 10% of the call and postOp limits, and preVerificationGas.
	conceded uint64
}

func (b atBounds) packed() []bundler.PackedUserOperation {
	out := make([]bundler.PackedUserOperation, len(b.ops))
	for i, op := range b.ops {
		out[i] = op.Pack()
	}
	return out
}

// approvedAtBounds has project p approve n fresh accounts' first
// operations with the largest gas limits, fees and preVerificationGas the
// bounds allow, signed by their owners.
func (h *harness) approvedAtBounds(p string, n int) atBounds {
	h.t.Helper()
	ctx := context.Background()
	var suggested hexutil.Big
	if err := h.node.Call(ctx, &suggested, "eth_maxPriorityFeePerGas"); err != nil {
		h.t.Fatal(err)
	}
	tip := new(big.Int).Mul(suggested.ToInt(), big.NewInt(2))
	if tip.Cmp(bundler.DefaultSponsorMaxPriorityFee) > 0 {
		tip = bundler.DefaultSponsorMaxPriorityFee
	}
	feeCap := new(big.Int).Mul(h.baseFee(), big.NewInt(bundler.DefaultBaseFeeMultiplierPercent))
	feeCap.Div(feeCap, big.NewInt(100)).Add(feeCap, tip)
	b := atBounds{tip: tip, feeCap: feeCap, gasLimit: 200_000}
	for i := 0; i < n; i++ {
		o := h.newOwner()
		op := h.op(o, nil, 0)
		op.VerificationGasLimit, op.CallGasLimit = bundler.DefaultSponsorMaxVerificationGas, bundler.DefaultSponsorMaxCallGas
		op.MaxFeePerGas, op.MaxPriorityFeePerGas = feeCap, tip
		op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster) * 110 / 100
		a, rerr := h.svc.PaymasterData(ctx, p, network, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
		if rerr != nil {
			h.t.Fatalf("approval %d at the bounds: %v", i, rerr)
		}
		pm := a.Paymaster
		op.Paymaster, op.PaymasterData = &pm, a.PaymasterData
		op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(a.PaymasterVerificationGasLimit), uint64(a.PaymasterPostOpGasLimit)
		h.sign(op, o.key)
		b.ops = append(b.ops, op)
		b.gasLimit += op.VerificationGasLimit + op.CallGasLimit + op.PreVerificationGas + op.PaymasterVerificationGasLimit + op.PaymasterPostOpGasLimit
		b.conceded += (op.CallGasLimit+op.PaymasterPostOpGasLimit)/10 + op.PreVerificationGas
	}
	return b
}

// waitReport waits until project p's report shows spent, nothing
// reserved and included operations today.
func (h *harness) waitReport(p string, spent *big.Int, included int64) {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := h.report(p)
		if r.Spent.Cmp(spent) == 0 && r.Reserved.Sign() == 0 && r.IncludedToday == included {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("report spent %s (%d operations), reserved %s; want %s spent by %d", r.Spent, r.IncludedToday, r.Reserved, spent, included)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// handleOpsReverts simulates handleOps(ops, beneficiary) from from and
// returns the FailedOp reason it reverts with ("" if it does not).
func (h *harness) handleOpsReverts(from common.Address, ops []bundler.PackedUserOperation, beneficiary common.Address) string {
	h.t.Helper()
	data, err := epABI.Pack("handleOps", ops, beneficiary)
	if err != nil {
		h.t.Fatal(err)
	}
	var out hexutil.Bytes
	err = h.node.Call(context.Background(), &out, "eth_call", map[string]any{"from": from, "to": chain.EntryPoint, "data": hexutil.Bytes(data)}, "latest")
	if err == nil {
		return ""
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		h.t.Fatalf("handleOps simulation: %v", err)
	}
	s, _ := de.ErrorData().(string)
	raw, _ := hexutil.Decode(s)
	for _, name := range []string{"FailedOp", "FailedOpWithRevert"} {
		e := epABI.Errors[name]
		if len(raw) >= 4 && string(raw[:4]) == string(e.ID[:4]) {
			if vals, err := e.Inputs.Unpack(raw[4:]); err == nil {
				return vals[1].(string)
			}
		}
	}
	h.t.Fatalf("handleOps reverted with %x, not FailedOp", raw)
	return ""
}

// txReceipt is the part of a transaction receipt the drain test reads.
type txReceipt struct {
	Status            hexutil.Uint64 `json:"status"`
	GasUsed           hexutil.Uint64 `json:"gasUsed"`
	EffectiveGasPrice *hexutil.Big   `json:"effectiveGasPrice"`
}

// handleOps sends EntryPoint.handleOps(ops, beneficiary) from acc, as
// anyone may, and waits for its receipt.
func (h *harness) handleOps(acc devnet.Account, ops []bundler.PackedUserOperation, beneficiary common.Address, tip, feeCap *big.Int, gas uint64) txReceipt {
	h.t.Helper()
	ctx := context.Background()
	data, err := epABI.Pack("handleOps", ops, beneficiary)
	if err != nil {
		h.t.Fatal(err)
	}
	var nonce hexutil.Uint64
	if err := h.node.Call(ctx, &nonce, "eth_getTransactionCount", acc.Address, "pending"); err != nil {
		h.t.Fatal(err)
	}
	id := new(big.Int).SetUint64(chain.ChainID)
	ep := chain.EntryPoint
	tx, err := types.SignNewTx(acc.Key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: uint64(nonce), GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &ep, Data: data,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.node.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		var raw json.RawMessage
		if err := h.node.Call(ctx, &raw, "eth_getTransactionReceipt", tx.Hash()); err != nil {
			h.t.Fatal(err)
		}
		if len(raw) > 0 && string(raw) != "null" {
			var r txReceipt
			if err := json.Unmarshal(raw, &r); err != nil {
				h.t.Fatal(err)
			}
			return r
		}
		if time.Now().After(deadline) {
			h.t.Fatal("handleOps not mined")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
