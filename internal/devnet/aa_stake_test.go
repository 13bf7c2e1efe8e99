package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
)

// The EntryPoint's stake manager and handleAggregatedOps (issue 17).

var (
	testAggregatorArtifact = contracts.MustLoad("LatchTestAggregator")
	aggregatedAccountABI   = contracts.MustLoad("LatchTestAggregatedAccount")
)

// send mines a transaction from key and returns its receipt, whatever its status.
func (h *aaHarness) send(key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, gas uint64) *types.Receipt {
	h.t.Helper()
	ctx := context.Background()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := h.client.PendingNonceAt(ctx, from)
	if err != nil {
		h.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	head, _ := h.client.HeaderByNumber(ctx, nil)
	chainID := big.NewInt(int64(h.chainID))
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1_000_000_000),
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1_000_000_000)),
		Gas:       gas, To: to, Value: value, Data: data,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.client.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	rs, err := shared.byNetwork[h.chain.CAIPNetworkID].waitMined(ctx, tx.Hash())
	if err != nil {
		h.t.Fatal(err)
	}
	return rs[0]
}

// revertReason runs data from from with eth_call and returns the Error(string)
// it reverts with ("" when it does not revert).
func (h *aaHarness) revertReason(from, to common.Address, data []byte) string {
	h.t.Helper()
	_, err := h.client.CallContract(context.Background(), ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
	if err == nil {
		return ""
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		h.t.Fatalf("call did not revert with data: %v", err)
	}
	raw, _ := hexutil.Decode(de.ErrorData().(string))
	if len(raw) < 4 || hexutil.Encode(raw[:4]) != "0x08c379a0" {
		h.t.Fatalf("revert data %x is not Error(string)", raw)
	}
	vals, err := (abiErrorString()).Unpack(raw[4:])
	if err != nil {
		h.t.Fatal(err)
	}
	return vals[0].(string)
}

type depositInfo struct {
	Deposit         *big.Int
	Staked          bool
	Stake           *big.Int
	UnstakeDelaySec uint32
	WithdrawTime    *big.Int
}

func (h *aaHarness) depositInfo(a common.Address) depositInfo {
	h.t.Helper()
	data, _ := entryPointArtifact.ABI.Pack("getDepositInfo", a)
	vals, err := entryPointArtifact.ABI.Unpack("getDepositInfo", h.call(EntryPointAddress, data))
	if err != nil {
		h.t.Fatal(err)
	}
	var info depositInfo
	if err := convertTuple(vals[0], &info); err != nil {
		h.t.Fatal(err)
	}
	return info
}

func TestAA_Stake(t *testing.T) {
	h := newAAHarness(t)
	key := mustKey(t)
	staker := crypto.PubkeyToAddress(key.PublicKey)
	h.fund(staker, ether(10))
	ep := EntryPointAddress
	pack := func(method string, args ...any) []byte {
		data, err := entryPointArtifact.ABI.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	const delay = 2 // seconds

	if got := h.revertReason(staker, ep, pack("addStake", uint32(0))); got != "stake: the unstake delay must be above zero" {
		t.Fatalf("addStake(0) reverted with %q", got)
	}
	if got := h.revertReason(staker, ep, pack("unlockStake")); got != "stake: nothing staked" {
		t.Fatalf("unlockStake without a stake: %q", got)
	}

	r := h.send(key, &ep, ether(1), pack("addStake", uint32(delay)), 200_000)
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("addStake reverted")
	}
	l, v := event(t, entryPointArtifact, r, "StakeLocked")
	if l == nil || common.BytesToAddress(l.Topics[1].Bytes()) != staker || v["totalStaked"].(*big.Int).Cmp(ether(1)) != 0 || v["unstakeDelaySec"].(*big.Int).Int64() != delay {
		t.Fatalf("StakeLocked = %v", v)
	}
	info := h.depositInfo(staker)
	if !info.Staked || info.Stake.Cmp(ether(1)) != 0 || info.UnstakeDelaySec != delay || info.WithdrawTime.Sign() != 0 || info.Deposit.Sign() != 0 {
		t.Fatalf("getDepositInfo after addStake = %+v", info)
	}
	// The stake is not the deposit: balanceOf stays 0.
	if b := new(big.Int).SetBytes(h.call(ep, pack("balanceOf", staker))); b.Sign() != 0 {
		t.Fatalf("balanceOf = %s, want 0", b)
	}

	if got := h.revertReason(staker, ep, pack("withdrawStake", staker)); got != "stake: call unlockStake first" {
		t.Fatalf("withdrawStake while locked: %q", got)
	}
	if got := h.revertReason(staker, ep, pack("addStake", uint32(delay-1))); got != "stake: the unstake delay cannot be shortened" {
		t.Fatalf("addStake with a shorter delay: %q", got)
	}

	r = h.send(key, &ep, nil, pack("unlockStake"), 100_000)
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("unlockStake reverted")
	}
	block, err := h.client.HeaderByNumber(context.Background(), r.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	withdrawTime := block.Time + delay
	if _, v := event(t, entryPointArtifact, r, "StakeUnlocked"); v == nil || v["withdrawTime"].(*big.Int).Uint64() != withdrawTime {
		t.Fatalf("StakeUnlocked = %v, want withdrawTime %d", v, withdrawTime)
	}
	info = h.depositInfo(staker)
	if info.Staked || info.WithdrawTime.Uint64() != withdrawTime || info.Stake.Cmp(ether(1)) != 0 {
		t.Fatalf("getDepositInfo after unlockStake = %+v", info)
	}
	if got := h.revertReason(staker, ep, pack("unlockStake")); got != "stake: already unlocking" {
		t.Fatalf("unlockStake twice: %q", got)
	}
	// Before the delay: refused (eth_call runs at the unlocking block's time).
	if got := h.revertReason(staker, ep, pack("withdrawStake", staker)); got != "stake: the unstake delay has not passed" {
		t.Fatalf("withdrawStake before the delay: %q", got)
	}

	// After it: the next block's timestamp is the wall clock's.
	time.Sleep(time.Until(time.Unix(int64(withdrawTime), 0)) + 100*time.Millisecond)
	to := newRecipient(t)
	r = h.send(key, &ep, nil, pack("withdrawStake", to), 100_000)
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("withdrawStake after the delay reverted")
	}
	if _, v := event(t, entryPointArtifact, r, "StakeWithdrawn"); v == nil || v["withdrawAddress"].(common.Address) != to || v["amount"].(*big.Int).Cmp(ether(1)) != 0 {
		t.Fatalf("StakeWithdrawn = %v", v)
	}
	if got := h.balance(to); got.Cmp(ether(1)) != 0 {
		t.Fatalf("withdrawn to %s: %s, want 1 ether", to.Hex(), got)
	}
	if info := h.depositInfo(staker); info.Staked || info.Stake.Sign() != 0 || info.UnstakeDelaySec != 0 || info.WithdrawTime.Sign() != 0 {
		t.Fatalf("getDepositInfo after withdrawStake = %+v", info)
	}
	if got := h.revertReason(staker, ep, pack("withdrawStake", to)); got != "stake: nothing to withdraw" {
		t.Fatalf("withdrawStake twice: %q", got)
	}
}

// aggregatedOps is one UserOpsPerAggregator.
type aggregatedOps struct {
	UserOps    []bundler.PackedUserOperation
	Aggregator common.Address
	Signature  []byte
}

func (h *aaHarness) deploy(key *ecdsa.PrivateKey, code []byte) common.Address {
	h.t.Helper()
	r := h.send(key, nil, nil, code, 3_000_000)
	if r.Status != types.ReceiptStatusSuccessful {
		h.t.Fatal("deployment reverted")
	}
	return r.ContractAddress
}

func TestAA_AggregatedOps(t *testing.T) {
	h := newAAHarness(t)
	deployer := mustKey(t)
	h.fund(crypto.PubkeyToAddress(deployer.PublicKey), ether(10))
	aggData, _ := testAggregatorArtifact.DeployData(EntryPointAddress)
	agg := h.deploy(deployer, aggData)

	// Two accounts that leave their signatures to agg, funded to pay their gas.
	type acct struct {
		owner *ecdsa.PrivateKey
		addr  common.Address
	}
	var accts []acct
	for range 2 {
		owner := mustKey(t)
		data, _ := aggregatedAccountABI.DeployData(EntryPointAddress, crypto.PubkeyToAddress(owner.PublicKey), agg)
		a := h.deploy(deployer, data)
		if r := h.send(deployer, &a, ether(1), nil, 100_000); r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("funding the account reverted")
		}
		accts = append(accts, acct{owner, a})
	}
	// And an ordinary LatchSmartAccount, in a group without an aggregator.
	plainOwner := mustKey(t)
	plain, create := h.counterfactual(crypto.PubkeyToAddress(plainOwner.PublicKey), 11)
	h.fund(plain, ether(1))

	recipients := []common.Address{newRecipient(t), newRecipient(t), newRecipient(t)}
	aggOps := func() ([]*bundler.UserOperation, []byte) {
		var ops []*bundler.UserOperation
		var sig []byte
		for i, a := range accts {
			exec, _ := aggregatedAccountABI.ABI.Pack("execute", recipients[i], big.NewInt(int64(1000+i)), []byte{})
			op := h.op(a.addr, exec)
			s, err := bundler.SignHash(op.Hash(EntryPointAddress, h.chainID), a.owner)
			if err != nil {
				t.Fatal(err)
			}
			sig = append(sig, s...)
			ops = append(ops, op)
		}
		return ops, sig
	}
	packAll := func(ops []*bundler.UserOperation) []bundler.PackedUserOperation {
		out := make([]bundler.PackedUserOperation, len(ops))
		for i, op := range ops {
			out[i] = op.Pack()
		}
		return out
	}
	handleAggregated := func(groups []aggregatedOps) []byte {
		data, err := entryPointArtifact.ABI.Pack("handleAggregatedOps", groups, DevBundler.Address)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	t.Run("ThroughHandleOpsRefused", func(t *testing.T) {
		ops, _ := aggOps()
		if got := h.failedOp(ops[0]); got != "AA24 signature error" {
			t.Fatalf("FailedOp = %q, want AA24", got)
		}
	})

	t.Run("BadAggregateSignature", func(t *testing.T) {
		ops, sig := aggOps()
		sig[10] ^= 0xff
		data := handleAggregated([]aggregatedOps{{UserOps: packAll(ops), Aggregator: agg, Signature: sig}})
		_, err := h.client.CallContract(context.Background(), ethereum.CallMsg{From: DevBundler.Address, To: &EntryPointAddress, Data: data}, nil)
		var de rpc.DataError
		if !errors.As(err, &de) {
			t.Fatalf("handleAggregatedOps with a bad signature: %v", err)
		}
		raw, _ := hexutil.Decode(de.ErrorData().(string))
		e := entryPointArtifact.ABI.Errors["SignatureValidationFailed"]
		if len(raw) < 4 || string(raw[:4]) != string(e.ID[:4]) {
			t.Fatalf("revert data %x, want SignatureValidationFailed", raw)
		}
		vals, _ := e.Inputs.Unpack(raw[4:])
		if vals[0].(common.Address) != agg {
			t.Fatalf("SignatureValidationFailed(%s), want the aggregator %s", vals[0], agg.Hex())
		}
	})

	t.Run("ValidBundle", func(t *testing.T) {
		op := h.op(plain, nil)
		f := SmartAccountFactoryAddress
		op.Factory, op.FactoryData = &f, create
		exec, _ := smartAccountArtifact.ABI.Pack("execute", recipients[2], big.NewInt(1002), []byte{})
		op.CallData = exec
		h.sign(op, plainOwner)
		ops, sig := aggOps()
		r := h.handleAggregatedOps(handleAggregated([]aggregatedOps{
			{UserOps: packAll([]*bundler.UserOperation{op}), Aggregator: common.Address{}},
			{UserOps: packAll(ops), Aggregator: agg, Signature: sig},
		}))
		for i, want := range []int64{1000, 1001, 1002} {
			if got := h.balance(recipients[i]); got.Int64() != want {
				t.Fatalf("recipient %d has %s, want %d", i, got, want)
			}
		}
		// The events: each group's SignatureAggregatorChanged, then its
		// operations' UserOperationEvents; address(0) after the last.
		changed := entryPointArtifact.ABI.Events["SignatureAggregatorChanged"].ID
		opEvent := entryPointArtifact.ABI.Events["UserOperationEvent"].ID
		var seq []string
		for _, l := range r.Logs {
			if l.Address != EntryPointAddress {
				continue
			}
			switch l.Topics[0] {
			case changed:
				seq = append(seq, "agg:"+common.BytesToAddress(l.Topics[1].Bytes()).Hex())
			case opEvent:
				vals := map[string]any{}
				_ = entryPointArtifact.ABI.UnpackIntoMap(vals, "UserOperationEvent", l.Data)
				if vals["success"] != true {
					t.Fatalf("UserOperationEvent %v, want success", vals)
				}
				seq = append(seq, "op:"+common.BytesToAddress(l.Topics[2].Bytes()).Hex())
			}
		}
		zero := common.Address{}.Hex()
		want := []string{"agg:" + zero, "op:" + plain.Hex(), "agg:" + agg.Hex(), "op:" + accts[0].addr.Hex(), "op:" + accts[1].addr.Hex(), "agg:" + zero}
		if strings.Join(seq, " ") != strings.Join(want, " ") {
			t.Fatalf("events\n got %v\nwant %v", seq, want)
		}
	})

	// The plain account (deployed above) in the aggregator's group, its
	// owner's signature in the aggregate, so validateSignatures passes: its
	// validateUserOp names no aggregator where agg is expected.
	t.Run("PlainAccountInAggregatorGroupRefused", func(t *testing.T) {
		op := h.op(plain, nil)
		ps, err := bundler.SignHash(op.Hash(EntryPointAddress, h.chainID), plainOwner)
		if err != nil {
			t.Fatal(err)
		}
		op.Signature = ps
		ops, sig := aggOps()
		data := handleAggregated([]aggregatedOps{{UserOps: append(packAll(ops), op.Pack()), Aggregator: agg, Signature: append(sig, ps...)}})
		_, err = h.client.CallContract(context.Background(), ethereum.CallMsg{From: DevBundler.Address, To: &EntryPointAddress, Data: data}, nil)
		fo := decodeFailedOp(t, err)
		if fo != "2 AA24 signature error" {
			t.Fatalf("FailedOp = %q, want index 2 AA24", fo)
		}
	})

	t.Run("AggregatorSentinelRefused", func(t *testing.T) {
		ops, sig := aggOps()
		data := handleAggregated([]aggregatedOps{{UserOps: packAll(ops), Aggregator: common.BigToAddress(big.NewInt(1)), Signature: sig}})
		if got := h.revertReason(DevBundler.Address, EntryPointAddress, data); got != "AA96 invalid aggregator" {
			t.Fatalf("aggregator address(1): %q", got)
		}
	})
}

// handleAggregatedOps mines data (a handleAggregatedOps call) from DevBundler.
func (h *aaHarness) handleAggregatedOps(data []byte) *types.Receipt {
	h.t.Helper()
	ep := EntryPointAddress
	r := h.send(DevBundler.Key, &ep, nil, data, 5_000_000)
	if r.Status != types.ReceiptStatusSuccessful {
		h.t.Fatal("handleAggregatedOps reverted")
	}
	return r
}

// decodeFailedOp returns "<index> <reason>" of a FailedOp revert.
func decodeFailedOp(t *testing.T, err error) string {
	t.Helper()
	var de rpc.DataError
	if !errors.As(err, &de) {
		t.Fatalf("did not revert with data: %v", err)
	}
	raw, _ := hexutil.Decode(de.ErrorData().(string))
	e := entryPointArtifact.ABI.Errors["FailedOp"]
	if len(raw) < 4 || string(raw[:4]) != string(e.ID[:4]) {
		t.Fatalf("revert data %x is not FailedOp", raw)
	}
	vals, uerr := e.Inputs.Unpack(raw[4:])
	if uerr != nil {
		t.Fatal(uerr)
	}
	return vals[0].(*big.Int).String() + " " + vals[1].(string)
}

func abiErrorString() abi.Arguments {
	ty, _ := abi.NewType("string", "", nil)
	return abi.Arguments{{Type: ty}}
}

// convertTuple copies an unpacked ABI tuple into out (same field names).
func convertTuple(v, out any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unpack: %v", r)
		}
	}()
	abi.ConvertType(v, out)
	return nil
}
