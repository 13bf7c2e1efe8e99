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
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// Finding 3 of issue 33, the griefing it describes: an operation that
// passes validation when sent, then (its account armed by a transaction of
// its own) would pass a simulation against the latest block and revert in
// the next one, where its bundle is mined. Validated again before
// bundling, with the tracer, it is seen to read NUMBER and dropped: the
// bundler's key sends nothing and pays nothing, and the account, which
// broke a rule it had passed, is banned (GREP-040).
func TestService_GriefingOperationCostsTheBundlerNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		account := h.rulesAccountAt(ruleNone, common.Address{})
		hash, rerr := h.send(h.rulesOp(account))
		if rerr != nil {
			t.Fatal(rerr)
		}
		arm, _ := rulesAccount.ABI.Pack("arm")
		h.transact(&account, nil, arm)

		bundlerKey := h.bundlerAddress()
		balance, nonce := h.balance(bundlerKey), h.nonceOf(bundlerKey)
		h.run()
		r := h.waitStatus(hash, bundler.StatusFailed)
		if got := h.balance(bundlerKey); got.Cmp(balance) != 0 {
			t.Fatalf("the bundler key paid %s wei for the griefing operation", balance.Sub(balance, got))
		}
		if got := h.nonceOf(bundlerKey); got != nonce {
			t.Fatalf("the bundler key sent %d transactions", got-nonce)
		}
		if !strings.Contains(r.Reason, "ERC-7562 OP-011: the account "+account.Hex()+" used NUMBER") {
			t.Fatalf("reason %q", r.Reason)
		}
		_, rerr = h.send(h.rulesOp(account))
		wantCode(t, rerr, bundler.CodeReputation)
		if !strings.Contains(rerr.Message, "sender "+account.Hex()+" is banned") {
			t.Fatalf("message %q", rerr.Message)
		}
	})
}

func (h *harness) nonceOf(a common.Address) uint64 {
	h.t.Helper()
	var n hexutil.Uint64
	if err := h.node.Call(context.Background(), &n, "eth_getTransactionCount", a, "latest"); err != nil {
		h.t.Fatal(err)
	}
	return uint64(n)
}

// bundlerAddress is the dev bundler key's address.
func (h *harness) bundlerAddress() common.Address {
	return crypto.PubkeyToAddress(devchain.DevBundlerKey().PublicKey)
}

// sponsoredBy is a rules account's operation approved by the
// LatchVerifyingPaymaster pm, whose signer is signer, for any bundler.
func (h *harness) sponsoredBy(account, pm common.Address, signer *ecdsa.PrivateKey) *bundler.UserOperation {
	h.t.Helper()
	return h.sponsoredFor(account, pm, signer, common.Address{})
}

// sponsoredFor is sponsoredBy for the bundles of bundlerAddr only (zero: any).
func (h *harness) sponsoredFor(account, pm common.Address, signer *ecdsa.PrivateKey, bundlerAddr common.Address) *bundler.UserOperation {
	h.t.Helper()
	op := h.rulesOp(account)
	op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = &pm, 100_000, 50_000
	data, err := bundler.PaymasterData(op, chain.ChainID, uint64(time.Now().Add(time.Hour).Unix()), 0, bundlerAddr, signer)
	if err != nil {
		h.t.Fatal(err)
	}
	op.PaymasterData = data
	return op
}

// paymaster deploys a LatchVerifyingPaymaster (not the network's) with a
// new signer and a deposit of wei.
func (h *harness) paymaster(wei *big.Int) (common.Address, *ecdsa.PrivateKey) {
	h.t.Helper()
	signer, _ := crypto.GenerateKey()
	a := contracts.MustLoad("LatchVerifyingPaymaster")
	pm := h.deploy(a, chain.EntryPoint, crypto.PubkeyToAddress(signer.PublicKey), common.Address{1})
	deposit, _ := a.ABI.Pack("deposit")
	h.transact(&pm, wei, deposit)
	return pm, signer
}

// A paymaster whose operations pass their validation one by one and fail
// together in the bundle (its deposit pays for one of them) is banned
// (GREP-040); the other operation is included, and nothing is sent for
// the failing one.
func TestService_BundleFailurePenalizesPaymaster(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		a, b := h.rulesAccountAt(ruleNone, common.Address{}), h.rulesAccountAt(ruleNone, common.Address{})
		prefund := h.rulesOp(a).RequiredPrefund()
		pm, signer := h.paymaster(new(big.Int).Div(new(big.Int).Mul(prefund, big.NewInt(3)), big.NewInt(2)))
		first, rerr := h.send(h.sponsoredBy(a, pm, signer))
		if rerr != nil {
			t.Fatal(rerr)
		}
		second, rerr := h.send(h.sponsoredBy(b, pm, signer))
		if rerr != nil {
			t.Fatal(rerr)
		}
		h.run()
		h.waitStatus(first, bundler.StatusIncluded)
		if r := h.waitStatus(second, bundler.StatusFailed); !strings.Contains(r.Reason, "AA31 paymaster deposit too low") {
			t.Fatalf("reason %q", r.Reason)
		}
		reps, err := h.st.Reputations(context.Background(), network, []common.Address{pm, b}, time.Now())
		if err != nil || reps[pm].Status() != bundler.ReputationBanned || reps[b].Status() != bundler.ReputationOK {
			t.Fatalf("paymaster %+v, sender %+v, %v; want the paymaster banned, not the sender", reps[pm], reps[b], err)
		}
	})
}

// A paymaster of the operator's choosing (not the network's own) is rated
// like any entity: counted seen when its operation is accepted, and, when
// the operation is dropped for its account's fault, not charged for it
// (EREP-015: its opsSeen is taken back) while the account is banned.
func TestService_RevalidationSparesThePaymaster(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db, nil)
		pm, signer := h.paymaster(big.NewInt(1e18))
		account := h.rulesAccountAt(ruleNone, common.Address{})
		hash, rerr := h.send(h.sponsoredBy(account, pm, signer))
		if rerr != nil {
			t.Fatal(rerr)
		}
		reps := func() map[common.Address]bundler.Reputation {
			r, err := h.st.Reputations(context.Background(), network, []common.Address{pm, account}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if r := reps(); r[pm].OpsSeen != 1 || r[account].OpsSeen != 1 {
			t.Fatalf("after sending: %+v", r)
		}
		arm, _ := rulesAccount.ABI.Pack("arm")
		h.transact(&account, nil, arm)
		h.run()
		h.waitStatus(hash, bundler.StatusFailed)
		if r := reps(); r[pm].OpsSeen != 0 || r[account].Status() != bundler.ReputationBanned {
			t.Fatalf("after the account's fault: paymaster %+v, account %+v (%s)", r[pm], r[account], r[account].Status())
		}
	})
}
