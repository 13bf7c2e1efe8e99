package app_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

// runBundlerMain starts latchd dev on one chain with the given bundler config.
func runBundlerMain(t *testing.T, b app.BundlerConfig) *app.Main {
	t.Helper()
	cfg := app.Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), DevChains: []uint64{31337}, ShutdownTimeout: 5 * time.Second, Bundler: b}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

type rpcAnswer struct {
	Result json.RawMessage
	Error  *struct {
		Code    int
		Message string
	}
}

func rpcCall(t *testing.T, url, method string, params ...any) rpcAnswer {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out rpcAnswer
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustResult(t *testing.T, a rpcAnswer, out any) {
	t.Helper()
	if a.Error != nil {
		t.Fatalf("error %d %s", a.Error.Code, a.Error.Message)
	}
	if err := json.Unmarshal(a.Result, out); err != nil {
		t.Fatalf("result %s: %v", a.Result, err)
	}
}

// A visitor's first operation, through latchd's RPC endpoint as a wallet
// sends it: stub paymaster data, gas estimate, paymaster approval,
// signature, send, receipt. The account is deployed and sends ether; its
// owner's EOA holds nothing and paid nothing.
func TestMain_Bundler(t *testing.T) {
	m := runBundlerMain(t, app.BundlerConfig{Dev: true})
	info := m.Info()
	nw := info.Networks[0]
	url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + m.DevProjectID
	ep := common.HexToAddress(nw.EntryPoint)

	var eps []common.Address
	mustResult(t, rpcCall(t, url, "eth_supportedEntryPoints"), &eps)
	if len(eps) != 1 || eps[0] != ep {
		t.Fatalf("eth_supportedEntryPoints = %v, want [%s]", eps, ep)
	}

	// The account holds the ether it sends, from the dev faucet.
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b03")
	w := newWalletOp(t, m, url, to, big.NewInt(1e15))
	key, owner, sender, op := w.key, w.owner, w.op.Sender, w.op
	pm := *op.Paymaster
	chainID := hexutil.EncodeUint64(nw.ChainID)
	var approval bundler.PaymasterApproval
	mustResult(t, rpcCall(t, url, "pm_getPaymasterData", op, ep, chainID, map[string]any{}), &approval)
	// The approval names latchd's bundler key: only its bundles may use it.
	if got, want := common.BytesToAddress(approval.PaymasterData[12:32]), crypto.PubkeyToAddress(devchain.DevBundlerKey().PublicKey); got != want {
		t.Fatalf("approval for bundler %s, want latchd's %s", got, want)
	}
	op.PaymasterData = approval.PaymasterData
	op.Signature, _ = bundler.SignHash(op.Hash(ep, nw.ChainID), key)

	var hash common.Hash
	mustResult(t, rpcCall(t, url, "eth_sendUserOperation", op, ep), &hash)
	deadline := time.Now().Add(15 * time.Second)
	var receipt *bundler.Receipt
	for receipt == nil && time.Now().Before(deadline) {
		mustResult(t, rpcCall(t, url, "eth_getUserOperationReceipt", hash), &receipt)
		if receipt == nil {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if receipt == nil || !receipt.Success || receipt.Paymaster != pm {
		t.Fatalf("receipt %+v", receipt)
	}
	var code hexutil.Bytes
	mustResult(t, rpcCall(t, url, "eth_getCode", sender, "latest"), &code)
	var ownerBalance, toBalance hexutil.Big
	mustResult(t, rpcCall(t, url, "eth_getBalance", owner, "latest"), &ownerBalance)
	mustResult(t, rpcCall(t, url, "eth_getBalance", to, "latest"), &toBalance)
	if len(code) == 0 || ownerBalance.ToInt().Sign() != 0 || toBalance.ToInt().Cmp(big.NewInt(1e15)) < 0 {
		t.Fatalf("code %d bytes, owner %s, recipient %s", len(code), ownerBalance.ToInt(), toBalance.ToInt())
	}

	t.Run("WrongEntryPoint", func(t *testing.T) {
		a := rpcCall(t, url, "eth_sendUserOperation", op, common.HexToAddress("0x0000000071727De22E5E9d8BAf0edAc6f37da032"))
		if a.Error == nil || a.Error.Code != -32602 {
			t.Fatalf("answer %+v", a)
		}
	})
	// --sponsor-default is off: a project without a policy of its own is not sponsored.
	t.Run("OtherProjectNotSponsored", func(t *testing.T) {
		p := &project.Project{Name: "Other", Origins: []string{"https://other.example"}, Features: project.DefaultFeatures()}
		if err := m.Projects.Create(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		other := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + p.ID
		a := rpcCall(t, other, "pm_getPaymasterStubData", op, ep, chainID, map[string]any{})
		if a.Error == nil || a.Error.Code != bundler.CodePaymasterRejected {
			t.Fatalf("answer %+v", a)
		}
	})
}

// --sponsor-default sponsors projects without a policy, within its caps,
// from the project's own balance (none: a clear refusal).
func TestMain_BundlerSponsorDefault(t *testing.T) {
	m := runBundlerMain(t, app.BundlerConfig{Dev: true, SponsorDefault: true, SponsorAccountDailyCap: 1})
	nw := m.Info().Networks[0]
	p := &project.Project{Name: "Other", Origins: []string{"https://other.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + p.ID
	ep, chainID := common.HexToAddress(nw.EntryPoint), hexutil.EncodeUint64(nw.ChainID)
	bare := &bundler.UserOperation{Sender: common.Address{7}, Nonce: new(big.Int), MaxFeePerGas: new(big.Int), MaxPriorityFeePerGas: new(big.Int)}
	if a := rpcCall(t, url, "pm_getPaymasterStubData", bare, ep, chainID, map[string]any{}); a.Error == nil || a.Error.Code != bundler.CodePaymasterRejected || !strings.Contains(a.Error.Message, "no sponsorship balance") {
		t.Fatalf("a project without balance: %+v", a)
	}
	if err := bundler.NewStore(m.DB).Fund(context.Background(), p.ID, nw.CAIPNetworkID, big.NewInt(1e17), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	w := newWalletOp(t, m, url, common.Address{0xb0}, new(big.Int))
	var approval bundler.PaymasterApproval
	mustResult(t, rpcCall(t, url, "pm_getPaymasterData", w.op, ep, chainID, map[string]any{}), &approval)
	next := w.op.Copy()
	next.Nonce = big.NewInt(1)
	if a := rpcCall(t, url, "pm_getPaymasterData", next, ep, chainID, map[string]any{}); a.Error == nil || a.Error.Code != bundler.CodeThrottled {
		t.Fatalf("second operation of the account beyond --sponsor-account-daily-cap 1: %+v", a)
	}
}

// walletOp is a new visitor's first operation as the widget prepares it
// through latchd's RPC endpoint: a counterfactual account that calls
// execute(to, value), the paymaster's stub data and the bundler's gas
// estimate; pm_getPaymasterData comes next.
type walletOp struct {
	key   *ecdsa.PrivateKey
	owner common.Address
	op    *bundler.UserOperation
}

func newWalletOp(t *testing.T, m *app.Main, url string, to common.Address, value *big.Int) walletOp {
	t.Helper()
	nw := m.Info().Networks[0]
	ep := common.HexToAddress(nw.EntryPoint)
	key, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	factoryABI := contracts.MustLoad("LatchSmartAccountFactory").ABI
	accountABI := contracts.MustLoad("LatchSmartAccount").ABI
	factory := common.HexToAddress(nw.SmartAccountFactory)
	data, _ := factoryABI.Pack("getAddress", owner, big.NewInt(0))
	var out hexutil.Bytes
	mustResult(t, rpcCall(t, url, "eth_call", map[string]any{"to": factory, "data": hexutil.Bytes(data)}, "latest"), &out)
	sender := common.BytesToAddress(out)
	if value.Sign() > 0 {
		c := client{t: t, base: m.APIURL()}
		c.want(c.do("POST", "/dev/faucet", `{"address":"`+sender.Hex()+`","caipNetworkId":"`+nw.CAIPNetworkID+`","amount":"0.01"}`), 200)
	}
	call, _ := accountABI.Pack("execute", to, value, []byte{})
	create, _ := factoryABI.Pack("createAccount", owner, big.NewInt(0))
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	mustResult(t, rpcCall(t, url, "eth_getBlockByNumber", "latest", false), &head)
	var tip hexutil.Big
	mustResult(t, rpcCall(t, url, "eth_maxPriorityFeePerGas"), &tip)
	op := &bundler.UserOperation{
		Sender: sender, Nonce: new(big.Int), Factory: &factory, FactoryData: create, CallData: call,
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Div(new(big.Int).Mul(head.BaseFee.ToInt(), big.NewInt(12)), big.NewInt(10)), tip.ToInt()), MaxPriorityFeePerGas: tip.ToInt(),
		Signature: bundler.StubSignature(),
	}
	chainID := hexutil.EncodeUint64(nw.ChainID)
	var stub bundler.PaymasterStub
	mustResult(t, rpcCall(t, url, "pm_getPaymasterStubData", op, ep, chainID, map[string]any{}), &stub)
	pm := stub.Paymaster
	op.Paymaster, op.PaymasterData = &pm, stub.PaymasterData
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(stub.PaymasterVerificationGasLimit), uint64(stub.PaymasterPostOpGasLimit)
	var est bundler.GasEstimate
	mustResult(t, rpcCall(t, url, "eth_estimateUserOperationGas", op, ep), &est)
	op.VerificationGasLimit, op.CallGasLimit, op.PreVerificationGas = uint64(est.VerificationGasLimit), uint64(est.CallGasLimit), uint64(est.PreVerificationGas)
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = uint64(*est.PaymasterVerificationGasLimit), uint64(*est.PaymasterPostOpGasLimit)
	return walletOp{key: key, owner: owner, op: op}
}

// Without --dev-bundler the methods are not served.
func TestMain_BundlerOff(t *testing.T) {
	m := runBundlerMain(t, app.BundlerConfig{})
	nw := m.Info().Networks[0]
	a := rpcCall(t, m.APIURL()+"/v1?chainId="+nw.CAIPNetworkID+"&projectId="+m.DevProjectID, "eth_supportedEntryPoints")
	if a.Error == nil || a.Error.Code != -32601 {
		t.Fatalf("answer %s %+v", a.Result, a.Error)
	}
}

func TestMain_BundlerStartErrors(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte("0x"+strings.Repeat("11", 32)), 0o600)
	badKey := filepath.Join(dir, "bad")
	os.WriteFile(badKey, []byte("not a key"), 0o600)
	for _, tt := range []struct {
		name string
		b    app.BundlerConfig
		want string
	}{
		{"UnknownNetwork", app.BundlerConfig{Networks: []string{"eip155:999999999=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001"}, KeyFile: keyFile}, "unknown network"},
		{"NoUpstream", app.BundlerConfig{Networks: []string{"eip155:1=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001"}, KeyFile: keyFile}, "no --rpc-upstream"},
		{"BadKey", app.BundlerConfig{Networks: []string{"eip155:1=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001"}, KeyFile: badKey}, "does not hold a hex private key"},
		{"PaymasterWithoutBundler", app.BundlerConfig{Paymasters: []string{"eip155:1=0x0000000000000000000000000000000000000002"}, PaymasterKeyFile: keyFile}, "has no --bundler"},
		{"MinBalanceWithoutBundler", app.BundlerConfig{Dev: true, MinBalances: []string{"eip155:1=5"}}, "--bundler-min-balance eip155:1: the network has no bundler"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := app.Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), DevChains: []uint64{31337}, Bundler: tt.b}
			m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
			err := m.Run(context.Background())
			m.Close()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), strings.Repeat("11", 32)) {
				t.Fatal("the error shows the key")
			}
		})
	}
}

// --bundler-min-balance: below it the dev network's bundler refuses new
// operations, and the admin listener's metric says so.
func TestMain_BundlerMinBalance(t *testing.T) {
	m := runBundlerMain(t, app.BundlerConfig{Dev: true, MinBalances: []string{"eip155:31337=" + strings.Repeat("9", 40)}})
	nw := m.Info().Networks[0]
	url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + m.DevProjectID
	op := &bundler.UserOperation{Sender: common.Address{7}, Nonce: new(big.Int), MaxFeePerGas: big.NewInt(2), MaxPriorityFeePerGas: big.NewInt(1), CallGasLimit: 1, VerificationGasLimit: 1, PreVerificationGas: 1, Signature: []byte{1}}
	a := rpcCall(t, url, "eth_sendUserOperation", op, common.HexToAddress(nw.EntryPoint))
	if a.Error == nil || a.Error.Code != -32002 || !strings.Contains(a.Error.Message, "takes no new operations for now") {
		t.Fatalf("answer %s %+v", a.Result, a.Error)
	}
	resp, err := http.Get(m.AdminURL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "\nlatch_bundler_key_balance_low 1\n") {
		t.Fatalf("/metrics has no latch_bundler_key_balance_low 1:\n%s", body)
	}
}

// The sponsorship settings (--sponsor-* flags) bound what latchd dev's
// paymaster approves: gas caps, fee multiplier and priority fee ceiling,
// the approval's lifetime, and the daily budgets; --sponsor-any-bundler's
// approvals name no bundler.
func TestMain_SponsorBounds(t *testing.T) {
	m := runBundlerMain(t, app.BundlerConfig{Dev: true, Sponsor: app.SponsorConfig{
		MaxCallGas: []string{"eip155:31337=90000"}, MaxVerificationGas: []string{"1900000"}, BaseFeeMultiplier: "1.5",
		MaxPriorityFee: []string{"1500000000"}, ApprovalTTL: 45 * time.Second, AnyBundler: true,
	}})
	nw := m.Info().Networks[0]
	url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + m.DevProjectID
	ep, chainID := common.HexToAddress(nw.EntryPoint), hexutil.EncodeUint64(nw.ChainID)
	w := newWalletOp(t, m, url, common.Address{0xb0}, new(big.Int))
	var approval bundler.PaymasterApproval
	mustResult(t, rpcCall(t, url, "pm_getPaymasterData", w.op, ep, chainID, map[string]any{}), &approval)
	if d := time.Until(time.Unix(new(big.Int).SetBytes(approval.PaymasterData[:6]).Int64(), 0)); d > 45*time.Second || d < 40*time.Second {
		t.Fatalf("approval valid for %s, want 45 s", d)
	}
	if got := common.BytesToAddress(approval.PaymasterData[12:32]); got != (common.Address{}) {
		t.Fatalf("--sponsor-any-bundler: approval for bundler %s, want any (zero)", got)
	}
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	mustResult(t, rpcCall(t, url, "eth_getBlockByNumber", "latest", false), &head)
	for _, tt := range []struct {
		mod  func(op *bundler.UserOperation)
		want string
	}{
		{func(op *bundler.UserOperation) { op.CallGasLimit = 90_001 }, "callGasLimit 90001 is above the 90000"},
		{func(op *bundler.UserOperation) { op.VerificationGasLimit = 1_900_001 }, "verificationGasLimit 1900001 is above the 1900000"},
		{func(op *bundler.UserOperation) {
			op.MaxPriorityFeePerGas = big.NewInt(1_500_000_001)
			op.MaxFeePerGas = new(big.Int).Add(op.MaxPriorityFeePerGas, head.BaseFee.ToInt())
		}, "at most 1500000000"},
		{func(op *bundler.UserOperation) { op.MaxFeePerGas = big.NewInt(25_000_000_000) }, "1.5 times the base fee"},
	} {
		op := w.op.Copy()
		tt.mod(op)
		if a := rpcCall(t, url, "pm_getPaymasterData", op, ep, chainID, map[string]any{}); a.Error == nil || a.Error.Code != bundler.CodePaymasterRejected || !strings.Contains(a.Error.Message, tt.want) {
			t.Errorf("answer %+v, want %q", a.Error, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		s    app.SponsorConfig
		want string
	}{
		{"DailyBudget", app.SponsorConfig{DailyBudget: "0.000001"}, "This project has reached today's sponsorship budget of 0.000001 ETH on eip155:31337"},
		{"AccountDailyBudget", app.SponsorConfig{AccountDailyBudget: "0.000002"}, "This account has reached today's sponsorship budget of 0.000002 ETH"},
		{"NetworkDailyBudget", app.SponsorConfig{NetworkDailyBudgets: []string{"eip155:31337=0.000003"}}, "Sponsorship on eip155:31337 has reached today's budget of 0.000003 ETH"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := runBundlerMain(t, app.BundlerConfig{Dev: true, Sponsor: tt.s})
			url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + m.DevProjectID
			w := newWalletOp(t, m, url, common.Address{0xb0}, new(big.Int))
			if a := rpcCall(t, url, "pm_getPaymasterData", w.op, ep, chainID, map[string]any{}); a.Error == nil || a.Error.Code != bundler.CodeThrottled || !strings.Contains(a.Error.Message, tt.want) {
				t.Fatalf("answer %+v, want %q", a.Error, tt.want)
			}
		})
	}
}
