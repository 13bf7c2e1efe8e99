package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
)

var smartAccountArtifact = contracts.MustLoad("LatchSmartAccount")

// aaHarness sends user operations straight to a dev chain's EntryPoint with
// handleOps, as a bundler would, from DevBundler.
type aaHarness struct {
	t       *testing.T
	chain   Chain
	client  *ethclient.Client
	chainID uint64
}

func newAAHarness(t *testing.T) *aaHarness {
	t.Helper()
	c := shared.Chains()[0]
	return &aaHarness{t: t, chain: c, client: MustDial(t, c), chainID: c.ChainID}
}

// counterfactual returns the account address of (owner, salt) and the
// initCode fields that deploy it.
func (h *aaHarness) counterfactual(owner common.Address, salt int64) (common.Address, []byte) {
	h.t.Helper()
	data, _ := smartAccountFactoryArtifact.ABI.Pack("getAddress", owner, big.NewInt(salt))
	out := h.call(SmartAccountFactoryAddress, data)
	vals, err := smartAccountFactoryArtifact.ABI.Unpack("getAddress", out)
	if err != nil {
		h.t.Fatal(err)
	}
	create, _ := smartAccountFactoryArtifact.ABI.Pack("createAccount", owner, big.NewInt(salt))
	return vals[0].(common.Address), create
}

func (h *aaHarness) call(to common.Address, data []byte) []byte {
	h.t.Helper()
	out, err := h.client.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		h.t.Fatalf("call %s: %v", to.Hex(), err)
	}
	return out
}

// op returns an operation of sender with the next nonce of key 0, generous
// gas limits and fees above the current base fee.
func (h *aaHarness) op(sender common.Address, callData []byte) *bundler.UserOperation {
	h.t.Helper()
	data, _ := entryPointArtifact.ABI.Pack("getNonce", sender, big.NewInt(0))
	nonce := new(big.Int).SetBytes(h.call(EntryPointAddress, data))
	head, err := h.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		h.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	return &bundler.UserOperation{
		Sender: sender, Nonce: nonce, CallData: callData,
		CallGasLimit: 300_000, VerificationGasLimit: 1_500_000, PreVerificationGas: 60_000,
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), MaxPriorityFeePerGas: tip,
	}
}

func (h *aaHarness) sign(op *bundler.UserOperation, owner *ecdsa.PrivateKey) {
	h.t.Helper()
	sig, err := bundler.SignHash(op.Hash(EntryPointAddress, h.chainID), owner)
	if err != nil {
		h.t.Fatal(err)
	}
	op.Signature = sig
}

// sponsor makes VerifyingPaymasterAddress pay for op, approved by signer
// until validUntil in transactions sent by DevBundler.
func (h *aaHarness) sponsor(op *bundler.UserOperation, signer *ecdsa.PrivateKey, validUntil uint64) {
	h.t.Helper()
	h.sponsorFor(op, signer, validUntil, DevBundler.Address)
}

// sponsorFor is sponsor for transactions sent by bundler (zero: anyone's).
func (h *aaHarness) sponsorFor(op *bundler.UserOperation, signer *ecdsa.PrivateKey, validUntil uint64, bundlerAddr common.Address) {
	h.t.Helper()
	pm := VerifyingPaymasterAddress
	op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = &pm, 100_000, 50_000
	data, err := bundler.PaymasterData(op, h.chainID, validUntil, 0, bundlerAddr, signer)
	if err != nil {
		h.t.Fatal(err)
	}
	op.PaymasterData = data
}

func (h *aaHarness) handleOpsData(ops ...*bundler.UserOperation) []byte {
	packed := make([]bundler.PackedUserOperation, len(ops))
	for i, op := range ops {
		packed[i] = op.Pack()
	}
	data, err := entryPointArtifact.ABI.Pack("handleOps", packed, DevBundler.Address)
	if err != nil {
		h.t.Fatal(err)
	}
	return data
}

// handleOps mines handleOps(ops) and returns its receipt.
func (h *aaHarness) handleOps(ops ...*bundler.UserOperation) *types.Receipt {
	h.t.Helper()
	ctx := context.Background()
	nonce, err := h.client.PendingNonceAt(ctx, DevBundler.Address)
	if err != nil {
		h.t.Fatal(err)
	}
	head, _ := h.client.HeaderByNumber(ctx, nil)
	tx, err := types.SignNewTx(DevBundler.Key, types.LatestSignerForChainID(big.NewInt(int64(h.chainID))), &types.DynamicFeeTx{
		ChainID: big.NewInt(int64(h.chainID)), Nonce: nonce, GasTipCap: big.NewInt(1_000_000_000),
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1_000_000_000)),
		Gas:       5_000_000, To: &EntryPointAddress, Data: h.handleOpsData(ops...),
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.client.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := h.client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				h.t.Fatalf("handleOps reverted")
			}
			return r
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("handleOps not mined: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// failedOp simulates handleOps(ops) and returns the FailedOp reason it reverts with.
func (h *aaHarness) failedOp(ops ...*bundler.UserOperation) string {
	h.t.Helper()
	_, err := h.client.CallContract(context.Background(), ethereum.CallMsg{From: DevBundler.Address, To: &EntryPointAddress, Data: h.handleOpsData(ops...)}, nil)
	var de rpc.DataError
	if !errors.As(err, &de) {
		h.t.Fatalf("handleOps did not revert with data: %v", err)
	}
	raw, _ := hexutil.Decode(de.ErrorData().(string))
	for _, name := range []string{"FailedOp", "FailedOpWithRevert"} {
		e := entryPointArtifact.ABI.Errors[name]
		if len(raw) >= 4 && string(raw[:4]) == string(e.ID[:4]) {
			vals, err := e.Inputs.Unpack(raw[4:])
			if err != nil {
				h.t.Fatal(err)
			}
			return vals[1].(string)
		}
	}
	h.t.Fatalf("revert data %x is not FailedOp", raw)
	return ""
}

// event returns the first log of the named event of a in r, decoded.
func event(t *testing.T, a *contracts.Artifact, r *types.Receipt, name string) (*types.Log, map[string]any) {
	t.Helper()
	ev := a.ABI.Events[name]
	for _, l := range r.Logs {
		if len(l.Topics) > 0 && l.Topics[0] == ev.ID {
			vals := map[string]any{}
			if err := a.ABI.UnpackIntoMap(vals, name, l.Data); err != nil {
				t.Fatal(err)
			}
			return l, vals
		}
	}
	return nil, nil
}

func (h *aaHarness) fund(to common.Address, amount *big.Int) {
	h.t.Helper()
	ctx := context.Background()
	nonce, _ := h.client.PendingNonceAt(ctx, DevBundler.Address)
	head, _ := h.client.HeaderByNumber(ctx, nil)
	tx, _ := types.SignNewTx(DevBundler.Key, types.LatestSignerForChainID(big.NewInt(int64(h.chainID))), &types.DynamicFeeTx{
		ChainID: big.NewInt(int64(h.chainID)), Nonce: nonce, GasTipCap: big.NewInt(1),
		GasFeeCap: new(big.Int).Mul(head.BaseFee, big.NewInt(2)), Gas: 21_000, To: &to, Value: amount,
	})
	if err := h.client.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	if _, err := shared.byNetwork[h.chain.CAIPNetworkID].waitMined(ctx, tx.Hash()); err != nil {
		h.t.Fatal(err)
	}
}

func (h *aaHarness) balance(a common.Address) *big.Int {
	h.t.Helper()
	b, err := h.client.BalanceAt(context.Background(), a, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return b
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestAA_Addresses(t *testing.T) {
	for _, c := range shared.Chains() {
		if c.EntryPoint != EntryPointAddress || c.SmartAccountFactory != SmartAccountFactoryAddress || c.VerifyingPaymaster != VerifyingPaymasterAddress {
			t.Fatalf("chain %d: AA addresses %s %s %s", c.ChainID, c.EntryPoint, c.SmartAccountFactory, c.VerifyingPaymaster)
		}
		client := MustDial(t, c)
		for _, a := range []common.Address{EntryPointAddress, SmartAccountFactoryAddress, VerifyingPaymasterAddress} {
			code, err := client.CodeAt(context.Background(), a, nil)
			if err != nil || len(code) == 0 {
				t.Fatalf("chain %d: no code at %s (%v)", c.ChainID, a.Hex(), err)
			}
		}
		data, _ := entryPointArtifact.ABI.Pack("balanceOf", VerifyingPaymasterAddress)
		out, err := client.CallContract(context.Background(), ethereum.CallMsg{To: &EntryPointAddress, Data: data}, nil)
		if err != nil || new(big.Int).SetBytes(out).Cmp(paymasterDeposit) != 0 {
			t.Fatalf("chain %d: paymaster deposit %x (%v), want %s", c.ChainID, out, err, paymasterDeposit)
		}
	}
}

func TestAA_DeployOnFirstUseExecuteAndBatch(t *testing.T) {
	h := newAAHarness(t)
	owner := mustKey(t)
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	sender, create := h.counterfactual(ownerAddr, 7)

	// getSenderAddress agrees with the factory.
	initCode := append(SmartAccountFactoryAddress.Bytes(), create...)
	gs, _ := entryPointArtifact.ABI.Pack("getSenderAddress", initCode)
	_, err := h.client.CallContract(context.Background(), ethereum.CallMsg{To: &EntryPointAddress, Data: gs}, nil)
	var de rpc.DataError
	if !errors.As(err, &de) || !strings.HasSuffix(strings.ToLower(de.ErrorData().(string)), strings.ToLower(sender.Hex()[2:])) {
		t.Fatalf("getSenderAddress: %v, want SenderAddressResult(%s)", err, sender.Hex())
	}

	h.fund(sender, ether(1))
	recipient := newRecipient(t)
	exec, _ := smartAccountArtifact.ABI.Pack("execute", recipient, big.NewInt(1e15), []byte{})
	op := h.op(sender, exec)
	f := SmartAccountFactoryAddress
	op.Factory, op.FactoryData = &f, create
	h.sign(op, owner)

	// The Go hash is the EntryPoint's.
	hd, _ := entryPointArtifact.ABI.Pack("getUserOpHash", op.Pack())
	if got := common.BytesToHash(h.call(EntryPointAddress, hd)); got != op.Hash(EntryPointAddress, h.chainID) {
		t.Fatalf("getUserOpHash = %s, Go hash %s", got, op.Hash(EntryPointAddress, h.chainID))
	}

	r := h.handleOps(op)
	if l, _ := event(t, entryPointArtifact, r, "AccountDeployed"); l == nil || common.BytesToAddress(l.Topics[2].Bytes()) != sender {
		t.Fatal("no AccountDeployed for the sender")
	}
	if _, v := event(t, entryPointArtifact, r, "UserOperationEvent"); v == nil || v["success"] != true {
		t.Fatalf("UserOperationEvent = %v, want success", v)
	}
	if _, v := event(t, entryPointArtifact, r, "BeforeExecution"); v == nil {
		t.Fatal("no BeforeExecution")
	}
	if got := h.balance(recipient); got.Cmp(big.NewInt(1e15)) != 0 {
		t.Fatalf("recipient has %s, want 1e15", got)
	}

	// Batch: two transfers in one operation, nonce 1, no initCode.
	a, b := newRecipient(t), newRecipient(t)
	batch, _ := smartAccountArtifact.ABI.Pack("executeBatch", []common.Address{a, b}, []*big.Int{big.NewInt(1), big.NewInt(2)}, [][]byte{{}, {}})
	op2 := h.op(sender, batch)
	if op2.Nonce.Uint64() != 1 {
		t.Fatalf("nonce after one operation = %s, want 1", op2.Nonce)
	}
	h.sign(op2, owner)
	h.handleOps(op2)
	if h.balance(a).Int64() != 1 || h.balance(b).Int64() != 2 {
		t.Fatalf("batch balances %s, %s, want 1, 2", h.balance(a), h.balance(b))
	}

	// A reverting call is charged and reported, the bundle still succeeds.
	bad, _ := smartAccountArtifact.ABI.Pack("execute", EntryPointAddress, big.NewInt(0), []byte{0xde, 0xad, 0xbe, 0xef})
	op3 := h.op(sender, bad)
	h.sign(op3, owner)
	r = h.handleOps(op3)
	if _, v := event(t, entryPointArtifact, r, "UserOperationEvent"); v == nil || v["success"] != false {
		t.Fatalf("UserOperationEvent = %v, want success false", v)
	}

	// A second initCode for the deployed account is refused.
	op4 := h.op(sender, nil)
	op4.Factory, op4.FactoryData = &f, create
	h.sign(op4, owner)
	if got := h.failedOp(op4); got != "AA10 sender already constructed" {
		t.Fatalf("FailedOp = %q", got)
	}

	// 192-bit nonce keys: key 5 starts at sequence 0.
	nd, _ := entryPointArtifact.ABI.Pack("getNonce", sender, big.NewInt(5))
	if got := new(big.Int).SetBytes(h.call(EntryPointAddress, nd)); got.Cmp(new(big.Int).Lsh(big.NewInt(5), 64)) != 0 {
		t.Fatalf("getNonce(key 5) = %s", got)
	}
}

func TestAA_ERC1271(t *testing.T) {
	h := newAAHarness(t)
	owner := mustKey(t)
	sender, create := h.counterfactual(crypto.PubkeyToAddress(owner.PublicKey), 1)
	h.fund(sender, ether(1))
	op := h.op(sender, nil)
	f := SmartAccountFactoryAddress
	op.Factory, op.FactoryData = &f, create
	h.sign(op, owner)
	h.handleOps(op)

	hash := crypto.Keccak256Hash([]byte("hello"))
	check := func(key *ecdsa.PrivateKey) [4]byte {
		sig, _ := crypto.Sign(hash[:], key)
		sig[64] += 27
		data, _ := smartAccountArtifact.ABI.Pack("isValidSignature", hash, sig)
		vals, err := smartAccountArtifact.ABI.Unpack("isValidSignature", h.call(sender, data))
		if err != nil {
			t.Fatal(err)
		}
		return vals[0].([4]byte)
	}
	if got := check(owner); got != [4]byte{0x16, 0x26, 0xba, 0x7e} {
		t.Fatalf("owner's signature: %x, want 1626ba7e", got)
	}
	if got := check(mustKey(t)); got != [4]byte{0xff, 0xff, 0xff, 0xff} {
		t.Fatalf("stranger's signature: %x, want ffffffff", got)
	}
}

func TestAA_PaymasterSponsored(t *testing.T) {
	h := newAAHarness(t)
	owner := mustKey(t)
	sender, create := h.counterfactual(crypto.PubkeyToAddress(owner.PublicKey), 0)
	recipient := newRecipient(t)
	// The account holds nothing: deployment and call are the paymaster's.
	op := h.op(sender, nil)
	f := SmartAccountFactoryAddress
	op.Factory, op.FactoryData = &f, create
	h.sponsor(op, DevPaymasterSigner.Key, uint64(time.Now().Add(time.Hour).Unix()))
	h.sign(op, owner)

	pmBefore := h.paymasterDeposit()
	r := h.handleOps(op)
	_, v := event(t, entryPointArtifact, r, "UserOperationEvent")
	if v == nil || v["success"] != true {
		t.Fatalf("UserOperationEvent = %v", v)
	}
	cost := v["actualGasCost"].(*big.Int)
	if got := new(big.Int).Sub(pmBefore, h.paymasterDeposit()); got.Cmp(cost) != 0 || cost.Sign() == 0 {
		t.Fatalf("paymaster paid %s, operation cost %s", got, cost)
	}
	if _, sv := event(t, verifyingPaymasterArtifact, r, "Sponsored"); sv == nil || sv["actualGasCost"].(*big.Int).Sign() == 0 {
		t.Fatalf("postOp's Sponsored = %v", sv)
	}
	if h.balance(sender).Sign() != 0 || h.balance(recipient).Sign() != 0 {
		t.Fatal("the account paid")
	}
}

func (h *aaHarness) paymasterDeposit() *big.Int {
	data, _ := entryPointArtifact.ABI.Pack("balanceOf", VerifyingPaymasterAddress)
	return new(big.Int).SetBytes(h.call(EntryPointAddress, data))
}

func TestAA_Rejected(t *testing.T) {
	h := newAAHarness(t)
	owner := mustKey(t)
	sender, create := h.counterfactual(crypto.PubkeyToAddress(owner.PublicKey), 3)
	f := SmartAccountFactoryAddress
	fresh := func() *bundler.UserOperation {
		op := h.op(sender, nil)
		op.Factory, op.FactoryData = &f, create
		return op
	}
	h.fund(sender, ether(1))

	t.Run("BadSignature", func(t *testing.T) {
		op := fresh()
		h.sign(op, mustKey(t))
		if got := h.failedOp(op); got != "AA24 signature error" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	t.Run("ExpiredPaymasterApproval", func(t *testing.T) {
		op := fresh()
		h.sponsor(op, DevPaymasterSigner.Key, uint64(time.Now().Add(-time.Minute).Unix()))
		h.sign(op, owner)
		if got := h.failedOp(op); got != "AA32 paymaster expired or not due" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	t.Run("PaymasterSignerNotLatchd", func(t *testing.T) {
		op := fresh()
		h.sponsor(op, mustKey(t), uint64(time.Now().Add(time.Hour).Unix()))
		h.sign(op, owner)
		if got := h.failedOp(op); got != "AA34 signature error" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	// An approval names the bundler whose transactions may use it
	// (failedOp sends from DevBundler): another's fails as a bad
	// signature, and one naming nobody holds in anyone's.
	t.Run("PaymasterApprovalForAnotherBundler", func(t *testing.T) {
		op := fresh()
		h.sponsorFor(op, DevPaymasterSigner.Key, uint64(time.Now().Add(time.Hour).Unix()), common.Address{0xb0})
		h.sign(op, owner)
		if got := h.failedOp(op); got != "AA34 signature error" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	t.Run("PaymasterApprovalForAnyBundler", func(t *testing.T) {
		op := fresh()
		h.sponsorFor(op, DevPaymasterSigner.Key, uint64(time.Now().Add(time.Hour).Unix()), common.Address{})
		h.sign(op, owner)
		data := h.handleOpsData(op)
		if _, err := h.client.CallContract(context.Background(), ethereum.CallMsg{From: common.Address{0xb0}, To: &EntryPointAddress, Data: data}, nil); err != nil {
			t.Fatalf("handleOps from another address: %v", err)
		}
	})
	t.Run("WrongNonce", func(t *testing.T) {
		op := fresh()
		op.Nonce = big.NewInt(9)
		h.sign(op, owner)
		if got := h.failedOp(op); got != "AA25 invalid account nonce" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	t.Run("NotDeployedNoInitCode", func(t *testing.T) {
		op := h.op(sender, nil)
		h.sign(op, owner)
		if got := h.failedOp(op); got != "AA20 account not deployed" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	t.Run("NoPrefund", func(t *testing.T) {
		poor := mustKey(t)
		s2, c2 := h.counterfactual(crypto.PubkeyToAddress(poor.PublicKey), 0)
		op := h.op(s2, nil)
		op.Factory, op.FactoryData = &f, c2
		h.sign(op, poor)
		if got := h.failedOp(op); got != "AA21 didn't pay prefund" {
			t.Fatalf("FailedOp = %q", got)
		}
	})
	// Nothing above landed: the account is still undeployed.
	if code, _ := h.client.CodeAt(context.Background(), sender, nil); len(code) != 0 {
		t.Fatal("a rejected operation deployed the account")
	}
}
