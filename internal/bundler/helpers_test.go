package bundler_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/rpcproxy"
	"github.com/latchkit/latch/internal/store"
)

// chain is the dev chain every test of the package uses; tests run one at a
// time since they share its bundler key.
var chain devnet.Chain

const network = "eip155:31337"

func TestMain(m *testing.M) {
	d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{31337}, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start devnet:", err)
		os.Exit(1)
	}
	chain = d.Chains()[0]
	code := m.Run()
	d.Close()
	os.Exit(code)
}

var (
	accountABI = contracts.MustLoad("LatchSmartAccount").ABI
	factoryABI = contracts.MustLoad("LatchSmartAccountFactory").ABI
	epABI      = contracts.MustLoad("LatchEntryPoint").ABI
)

// harness is a bundler Service on the dev chain over one store.
type harness struct {
	t    testing.TB
	svc  *bundler.Service
	st   *bundler.Store
	db   *store.DB
	node *evm.Client
	now  time.Time // zero: the real clock
}

// newHarness returns a service with the dev chain's contracts and keys;
// the bundling loop runs only after h.run().
func newHarness(t testing.TB, db *store.DB, mod func(*bundler.Config)) *harness {
	t.Helper()
	node, err := evm.NewClient([]string{chain.RPCURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	h := &harness{t: t, st: bundler.NewStore(db), db: db, node: node}
	cfg := bundler.Config{
		Networks: []bundler.NetworkConfig{{
			Network: network, ChainID: chain.ChainID, EntryPoint: chain.EntryPoint, Factory: chain.SmartAccountFactory, Node: node,
			BundlerKey: devchain.DevBundlerKey(), Paymaster: chain.VerifyingPaymaster, PaymasterKey: devchain.DevPaymasterSignerKey(),
		}},
		Store:         h.st,
		DefaultPolicy: bundler.Policy{Enabled: true},
		Now: func() time.Time {
			if !h.now.IsZero() {
				return h.now
			}
			return time.Now()
		},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	}
	if mod != nil {
		mod(&cfg)
	}
	h.svc, err = bundler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.svc.Close)
	// Sponsorship spends the project's own balance: "p1" has plenty.
	if err := h.st.Fund(context.Background(), "p1", network, new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18)), "tests", time.Now()); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *harness) run() { h.svc.Run(context.Background()) }

// owner is a smart account's owner key and its counterfactual account.
type owner struct {
	key     *ecdsa.PrivateKey
	account common.Address
	salt    int64
}

func (h *harness) newOwner() *owner {
	h.t.Helper()
	key, _ := crypto.GenerateKey()
	o := &owner{key: key}
	data, _ := factoryABI.Pack("getAddress", crypto.PubkeyToAddress(key.PublicKey), big.NewInt(0))
	out, err := h.node.CallContract(context.Background(), chain.SmartAccountFactory, data)
	if err != nil {
		h.t.Fatal(err)
	}
	o.account = common.BytesToAddress(out)
	return o
}

func (h *harness) baseFee() *big.Int {
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	if err := h.node.Call(context.Background(), &head, "eth_getBlockByNumber", "latest", false); err != nil {
		h.t.Fatal(err)
	}
	return head.BaseFee.ToInt()
}

// op is o's next operation: deploying the account when it has no code,
// calling execute(to, value) when to is set, with fixed generous gas.
func (h *harness) op(o *owner, to *common.Address, value int64) *bundler.UserOperation {
	h.t.Helper()
	ctx := context.Background()
	nd, _ := epABI.Pack("getNonce", o.account, big.NewInt(0))
	out, err := h.node.CallContract(ctx, chain.EntryPoint, nd)
	if err != nil {
		h.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	op := &bundler.UserOperation{
		Sender: o.account, Nonce: new(big.Int).SetBytes(out), CallData: []byte{},
		CallGasLimit: 200_000, VerificationGasLimit: 1_500_000, PreVerificationGas: 80_000,
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(h.baseFee(), big.NewInt(3)), tip), MaxPriorityFeePerGas: tip,
	}
	var code hexutil.Bytes
	if err := h.node.Call(ctx, &code, "eth_getCode", o.account, "latest"); err != nil {
		h.t.Fatal(err)
	}
	if len(code) == 0 {
		f := chain.SmartAccountFactory
		op.Factory = &f
		op.FactoryData, _ = factoryABI.Pack("createAccount", crypto.PubkeyToAddress(o.key.PublicKey), big.NewInt(0))
	}
	if to != nil {
		op.CallData, _ = accountABI.Pack("execute", *to, big.NewInt(value), []byte{})
	}
	return op
}

func (h *harness) sign(op *bundler.UserOperation, key *ecdsa.PrivateKey) {
	h.t.Helper()
	sig, err := bundler.SignHash(op.Hash(chain.EntryPoint, chain.ChainID), key)
	if err != nil {
		h.t.Fatal(err)
	}
	op.Signature = sig
}

// sponsor asks the service for paymaster data (pm_getPaymasterData) and
// sets it, after setting op's preVerificationGas to what the paymaster
// computes for it.
func (h *harness) sponsor(op *bundler.UserOperation, projectID string) *jsonrpc.Error {
	h.t.Helper()
	op.PreVerificationGas = bundler.SponsoredPreVerificationGas(op, chain.VerifyingPaymaster)
	a, rerr := h.svc.PaymasterData(context.Background(), projectID, network, op, chain.EntryPoint, hexutil.EncodeUint64(chain.ChainID))
	if rerr != nil {
		return rerr
	}
	pm := a.Paymaster
	op.Paymaster, op.PaymasterData = &pm, a.PaymasterData
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(a.PaymasterVerificationGasLimit), uint64(a.PaymasterPostOpGasLimit)
	return nil
}

func (h *harness) send(op *bundler.UserOperation) (common.Hash, *jsonrpc.Error) {
	return h.svc.SendUserOperation(context.Background(), "p1", network, op, chain.EntryPoint)
}

// rpc calls the service as the RPC proxy does and decodes the result into out.
func (h *harness) rpc(method string, out any, params ...any) *jsonrpc.Error {
	h.t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		h.t.Fatal(err)
	}
	res, rerr := h.svc.Serve(context.Background(), rpcproxy.LocalCall{Network: network, ProjectID: "p1", Method: method, Params: raw})
	if rerr != nil {
		return rerr
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			h.t.Fatalf("%s answer %s: %v", method, res, err)
		}
	}
	return nil
}

// waitReceipt polls eth_getUserOperationReceipt until it answers.
func (h *harness) waitReceipt(hash common.Hash) *bundler.Receipt {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		r, rerr := h.svc.UserOperationReceipt(context.Background(), network, hash)
		if rerr != nil {
			h.t.Fatal(rerr)
		}
		if r != nil {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatalf("no receipt for %s", hash)
	return nil
}

// waitStatus polls the mempool until hash has status.
func (h *harness) waitStatus(hash common.Hash, status bundler.Status) *bundler.Record {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		r, err := h.st.Get(context.Background(), hash)
		if err != nil {
			h.t.Fatal(err)
		}
		if r != nil && r.Status == status {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	r, _ := h.st.Get(context.Background(), hash)
	h.t.Fatalf("%s never became %s (record %+v)", hash, status, r)
	return nil
}

// mustNotStored fails if the mempool has hash.
func (h *harness) mustNotStored(hash common.Hash) {
	h.t.Helper()
	if r, err := h.st.Get(context.Background(), hash); err != nil || r != nil {
		h.t.Fatalf("refused operation stored: %+v, %v", r, err)
	}
}

func wantCode(t *testing.T, rerr *jsonrpc.Error, code int) {
	t.Helper()
	if rerr == nil || rerr.Code != code {
		t.Fatalf("error = %+v, want code %d", rerr, code)
	}
}

func mustProject(t *testing.T, db *store.DB) string {
	t.Helper()
	p := &project.Project{Name: "Shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	if err := project.NewService(db).Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func (h *harness) balance(a common.Address) *big.Int {
	var b hexutil.Big
	if err := h.node.Call(context.Background(), &b, "eth_getBalance", a, "latest"); err != nil {
		h.t.Fatal(err)
	}
	return b.ToInt()
}

// fund sends ether to a from the dev chain's first test account.
func (h *harness) fund(a common.Address, wei *big.Int) {
	h.t.Helper()
	acc := devnet.TestAccounts()[5]
	var nonce hexutil.Uint64
	ctx := context.Background()
	h.node.Call(ctx, &nonce, "eth_getTransactionCount", acc.Address, "pending")
	tx := signTx(h.t, acc.Key, uint64(nonce), a, wei, h.baseFee())
	if err := h.node.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for h.balance(a).Cmp(wei) < 0 {
		if time.Now().After(deadline) {
			h.t.Fatal("funding not mined")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
