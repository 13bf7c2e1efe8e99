package bundler_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The test contracts of contracts/src/test/LatchTestValidationRules.sol and
// their rules (the constants of the same names).
var (
	rulesAccount = contracts.MustLoad("LatchTestRulesAccount")
	rulesFactory = contracts.MustLoad("LatchTestRulesFactory")
)

const (
	ruleNone = iota
	ruleTimestamp
	ruleOtherStorage
	ruleBalance
	ruleNoCode
	ruleOutOfGas
	ruleEntryPointCall
	ruleGas
	ruleOrigin
)

const (
	factoryRuleNone = iota
	factoryRuleOwnStorage
	factoryRuleTwoCreate2
	factoryRuleTimestamp
)

// transact sends data (and value) to to, or creates a contract when to is
// nil, from a dev test account, and returns the mined receipt.
func (h *harness) transact(to *common.Address, value *big.Int, data []byte) *types.Receipt {
	h.t.Helper()
	ctx := context.Background()
	acc := devnet.TestAccounts()[6]
	var nonce hexutil.Uint64
	if err := h.node.Call(ctx, &nonce, "eth_getTransactionCount", acc.Address, "pending"); err != nil {
		h.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	id := new(big.Int).SetUint64(chain.ChainID)
	tx, err := types.SignNewTx(acc.Key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: uint64(nonce), GasTipCap: big.NewInt(1), GasFeeCap: new(big.Int).Mul(h.baseFee(), big.NewInt(3)),
		Gas: 3_000_000, To: to, Value: value, Data: data,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.node.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var r *types.Receipt
		if err := h.node.Call(ctx, &r, "eth_getTransactionReceipt", tx.Hash()); err != nil {
			h.t.Fatal(err)
		}
		if r != nil {
			if r.Status != types.ReceiptStatusSuccessful {
				h.t.Fatalf("transaction %s reverted", tx.Hash())
			}
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("transaction %s not mined", tx.Hash())
	return nil
}

// deploy creates a contract from its artifact and constructor arguments.
func (h *harness) deploy(a *contracts.Artifact, args ...any) common.Address {
	h.t.Helper()
	data, err := a.DeployData(args...)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.transact(nil, nil, data).ContractAddress
}

// rulesAccountAt deploys a LatchTestRulesAccount with rule and other.
func (h *harness) rulesAccountAt(rule int64, other common.Address) common.Address {
	h.t.Helper()
	return h.deploy(rulesAccount, chain.EntryPoint, big.NewInt(rule), other)
}

// rulesOp is a sponsored operation of sender (a deployed test account,
// which takes any signature) with an empty call.
func (h *harness) rulesOp(sender common.Address) *bundler.UserOperation {
	h.t.Helper()
	nd, _ := epABI.Pack("getNonce", sender, big.NewInt(0))
	out, err := h.node.CallContract(context.Background(), chain.EntryPoint, nd)
	if err != nil {
		h.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	op := &bundler.UserOperation{
		Sender: sender, Nonce: new(big.Int).SetBytes(out), CallData: []byte{},
		CallGasLimit: 100_000, VerificationGasLimit: 1_000_000, PreVerificationGas: 80_000,
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(h.baseFee(), big.NewInt(3)), tip), MaxPriorityFeePerGas: tip,
		Signature: StubSignature(),
	}
	if rerr := h.sponsor(op, "p1"); rerr != nil {
		h.t.Fatal(rerr)
	}
	return op
}

// factoryOp is the sponsored first operation of the account factory deploys for salt.
func (h *harness) factoryOp(factory common.Address, salt int64) *bundler.UserOperation {
	h.t.Helper()
	data, _ := rulesFactory.ABI.Pack("getAddress", big.NewInt(salt))
	out, err := h.node.CallContract(context.Background(), factory, data)
	if err != nil {
		h.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	op := &bundler.UserOperation{
		Sender: common.BytesToAddress(out), Nonce: new(big.Int), Factory: &factory, CallData: []byte{},
		CallGasLimit: 100_000, VerificationGasLimit: 1_500_000, PreVerificationGas: 80_000,
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(h.baseFee(), big.NewInt(3)), tip), MaxPriorityFeePerGas: tip,
		Signature: StubSignature(),
	}
	op.FactoryData, _ = rulesFactory.ABI.Pack("createAccount", big.NewInt(salt))
	if rerr := h.sponsor(op, "p1"); rerr != nil {
		h.t.Fatal(rerr)
	}
	return op
}

// StubSignature is a 65-byte signature the test accounts accept (they check none).
func StubSignature() []byte { return bundler.StubSignature() }

// ruleData is the data of a -32502 answer.
type ruleData struct {
	Rule    string         `json:"rule"`
	Entity  string         `json:"entity"`
	Address common.Address `json:"address"`
}

// An operation whose validation breaks one of ERC-7562's rules is refused
// with -32502 naming the rule and the entity, and nothing is stored; the
// same contracts without the breach are accepted. Staking lets a factory
// use its own storage (STO-031), and only a stake locked for a day counts.
func TestService_ValidationRules(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t), nil)
	honest := h.rulesAccountAt(ruleNone, common.Address{})
	if _, rerr := h.send(h.rulesOp(honest)); rerr != nil {
		t.Fatalf("an account that breaks no rule: %+v", rerr)
	}
	noCode := common.HexToAddress("0x00000000000000000000000000000000000c0de0")
	refused := func(t *testing.T, op *bundler.UserOperation, rule, entity, detail string) {
		t.Helper()
		_, rerr := h.send(op)
		wantCode(t, rerr, bundler.CodeRuleViolation)
		var d ruleData
		if err := json.Unmarshal(rerr.Data, &d); err != nil || d.Rule != rule || d.Entity != entity {
			t.Fatalf("data %s, want rule %s by the %s", rerr.Data, rule, entity)
		}
		if !strings.HasPrefix(rerr.Message, "ERC-7562 "+rule+": the "+entity) || !strings.Contains(rerr.Message, detail) {
			t.Fatalf("message %q, want %s by the %s, %q", rerr.Message, rule, entity, detail)
		}
		h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
	}
	for _, tt := range []struct {
		name   string
		rule   int64
		other  common.Address
		want   string
		detail string
	}{
		{"Timestamp", ruleTimestamp, common.Address{}, "OP-011", "used TIMESTAMP"},
		{"OtherAccountsStorage", ruleOtherStorage, honest, "STO-021", "read slot 0x0000000000000000000000000000000000000000000000000000000000000000 of " + honest.Hex()},
		{"Balance", ruleBalance, honest, "OP-080", "BALANCE"},
		{"AddressWithoutCode", ruleNoCode, noCode, "OP-041", noCode.Hex() + ", an address without code"},
		{"OutOfGas", ruleOutOfGas, common.Address{}, "OP-020", "ran out of gas"},
		{"EntryPointCall", ruleEntryPointCall, common.Address{}, "OP-054", "called the EntryPoint"},
		{"Gas", ruleGas, common.Address{}, "OP-012", "GAS"},
		{"Origin", ruleOrigin, common.Address{}, "OP-011", "used ORIGIN"},
	} {
		t.Run("Account"+tt.name, func(t *testing.T) {
			refused(t, h.rulesOp(h.rulesAccountAt(tt.rule, tt.other)), tt.want, "account", tt.detail)
		})
	}
	// latchd's paymaster reads ORIGIN in its validation (its approvals
	// name this bundler; every operation above carries one): ERC-7562's
	// one exception here is its own code. Another copy of it, at another
	// address, is refused for the same ORIGIN, and accepted with an
	// approval for any bundler, which does not read it.
	t.Run("OtherPaymasterOrigin", func(t *testing.T) {
		a, b := h.rulesAccountAt(ruleNone, common.Address{}), h.rulesAccountAt(ruleNone, common.Address{})
		pm, signer := h.paymaster(new(big.Int).Mul(h.rulesOp(a).RequiredPrefund(), big.NewInt(4)))
		op := h.sponsoredFor(a, pm, signer, h.bundlerAddress())
		_, rerr := h.send(op)
		wantCode(t, rerr, bundler.CodeRuleViolation)
		var d ruleData
		if err := json.Unmarshal(rerr.Data, &d); err != nil || d.Rule != "OP-011" || d.Entity != "paymaster" || d.Address != pm || !strings.Contains(rerr.Message, "used ORIGIN") {
			t.Fatalf("%s (data %s), want OP-011 by the paymaster %s for ORIGIN", rerr.Message, rerr.Data, pm.Hex())
		}
		h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
		if _, rerr := h.send(h.sponsoredFor(b, pm, signer, common.Address{})); rerr != nil {
			t.Fatalf("the other paymaster's approval for any bundler: %+v", rerr)
		}
	})
	// Unstaked factories.
	for _, tt := range []struct {
		name   string
		rule   int64
		want   string
		detail string
	}{
		{"OwnStorage", factoryRuleOwnStorage, "STO-031", "used its own storage without being staked"},
		{"TwoCreate2", factoryRuleTwoCreate2, "OP-031", "CREATE2"},
		{"Timestamp", factoryRuleTimestamp, "OP-011", "used TIMESTAMP"},
	} {
		t.Run("Factory"+tt.name, func(t *testing.T) {
			refused(t, h.factoryOp(h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(tt.rule)), 1), tt.want, "factory", tt.detail)
		})
	}
	t.Run("HonestFactory", func(t *testing.T) {
		if _, rerr := h.send(h.factoryOp(h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(factoryRuleNone)), 1)); rerr != nil {
			t.Fatal(rerr)
		}
	})
	t.Run("StakedFactoryOwnStorage", func(t *testing.T) {
		stake := func(delay uint32) common.Address {
			f := h.deploy(rulesFactory, chain.EntryPoint, big.NewInt(factoryRuleOwnStorage))
			data, _ := rulesFactory.ABI.Pack("stake", delay)
			h.transact(&f, bundler.DefaultMinStake, data)
			return f
		}
		if _, rerr := h.send(h.factoryOp(stake(86400), 1)); rerr != nil {
			t.Fatalf("a factory staked for a day: %+v", rerr)
		}
		refused(t, h.factoryOp(stake(3600), 1), "STO-031", "factory", "without being staked")
	})
}
