package bundler_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The paymaster drain of issue 33, end to end on the dev chain, with only
// a public project id: fresh counterfactual accounts ask for approvals,
// and the attacker submits handleOps itself with its own beneficiary (the
// EntryPoint pays the beneficiary each operation's gas at the
// operation's fee, from the paymaster's deposit).
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
	// the attacker bundles five fresh accounts' operations itself, paying
	// the fees they carry: its net gain is no more than the gas it paid.
	t.Run("HonestFee", func(t *testing.T) {
		var suggested hexutil.Big
		if err := h.node.Call(ctx, &suggested, "eth_maxPriorityFeePerGas"); err != nil {
			t.Fatal(err)
		}
		tip := new(big.Int).Mul(suggested.ToInt(), big.NewInt(2))
		if tip.Cmp(bundler.DefaultSponsorMaxPriorityFee) > 0 {
			tip = bundler.DefaultSponsorMaxPriorityFee
		}
		feeCap := new(big.Int).Mul(h.baseFee(), big.NewInt(bundler.DefaultBaseFeeMultiplierPercent))
		feeCap.Div(feeCap, big.NewInt(100)).Add(feeCap, tip)
		var ops []bundler.PackedUserOperation
		gasLimit, conceded := uint64(200_000), uint64(0)
		for i := 0; i < 5; i++ {
			o := h.newOwner()
			op := h.op(o, nil, 0)
			op.VerificationGasLimit, op.CallGasLimit = bundler.DefaultSponsorMaxVerificationGas, bundler.DefaultSponsorMaxCallGas
			op.MaxFeePerGas, op.MaxPriorityFeePerGas = feeCap, tip
			op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster) * 110 / 100
			a, rerr := h.svc.PaymasterData(ctx, p, network, op, chain.EntryPoint, chainID)
			if rerr != nil {
				t.Fatalf("approval %d at the bounds: %v", i, rerr)
			}
			pm := a.Paymaster
			op.Paymaster, op.PaymasterData = &pm, a.PaymasterData
			op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(a.PaymasterVerificationGasLimit), uint64(a.PaymasterPostOpGasLimit)
			h.sign(op, o.key)
			ops = append(ops, op.Pack())
			gasLimit += op.VerificationGasLimit + op.CallGasLimit + op.PreVerificationGas + op.PaymasterVerificationGasLimit + op.PaymasterPostOpGasLimit
			conceded += (op.CallGasLimit+op.PaymasterPostOpGasLimit)/10 + op.PreVerificationGas
		}
		key, _ := crypto.GenerateKey()
		beneficiary := crypto.PubkeyToAddress(key.PublicKey) // holds nothing before
		rcpt := h.handleOps(devnet.TestAccounts()[7], ops, beneficiary, tip, feeCap, gasLimit)
		if rcpt.Status != 1 {
			t.Fatalf("handleOps reverted: %+v", rcpt)
		}
		price := rcpt.EffectiveGasPrice.ToInt()
		paid := new(big.Int).Mul(new(big.Int).SetUint64(uint64(rcpt.GasUsed)), price)
		received := h.balance(beneficiary)
		gain := new(big.Int).Sub(received, paid)
		t.Logf("beneficiary received %s wei for a bundle whose gas cost %s wei (%d gas at %s wei): net %s wei", received, paid, rcpt.GasUsed, price, gain)
		if received.Sign() == 0 || gain.Cmp(paid) > 0 {
			t.Fatalf("the attacker gained %s wei net, more than the %s wei of gas it paid", gain, paid)
		}
		// Tighter: what remains is what ERC-4337 pays a bundler by design
		// (the 10% charge on unused call and postOp gas, preVerificationGas
		// for its overheads), which the gas caps bound.
		if gain.Cmp(new(big.Int).Mul(new(big.Int).SetUint64(conceded), price)) > 0 {
			t.Fatalf("the attacker gained %s wei net, more than the %d gas the bounds concede", gain, conceded)
		}
		// Settled from the chain's events although latchd did not bundle
		// them: the project spent what the beneficiary received, and its
		// approvals hold nothing more.
		deadline := time.Now().Add(15 * time.Second)
		for {
			r := h.report(p)
			if r.Spent.Cmp(received) == 0 && r.Reserved.Sign() == 0 && r.IncludedToday == 5 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("report spent %s (%d operations), reserved %s; the beneficiary received %s", r.Spent, r.IncludedToday, r.Reserved, received)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
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
