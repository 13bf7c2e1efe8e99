package rpcproxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/network"
)

// allowedSamples and refusedSamples are, per namespace of networks.json, the
// methods a client of that chain uses and those issue 15 saw forwarded.
var (
	allowedSamples = map[string][]string{
		"eip155": {"eth_call", "eth_getBalance", "eth_blockNumber", "eth_chainId", "eth_estimateGas", "eth_feeHistory",
			"eth_gasPrice", "eth_maxPriorityFeePerGas", "eth_getCode", "eth_getLogs", "eth_getTransactionCount",
			"eth_getTransactionReceipt", "eth_getTransactionByHash", "eth_getBlockByNumber", "eth_getBlockByHash",
			"eth_getStorageAt", "net_version", "web3_clientVersion", "eth_getFilterChanges", "eth_sendRawTransaction"},
		"solana": {"getBalance", "getAccountInfo", "getLatestBlockhash", "getSlot", "getSignatureStatuses",
			"getTokenAccountsByOwner", "simulateTransaction", "sendTransaction"},
		"bip122": {"getblockchaininfo", "getblockcount", "getblock", "getrawtransaction", "estimatesmartfee", "sendrawtransaction"},
	}
	refusedSamples = map[string][]string{
		"eip155": {"eth_resend", "eth_pendingTransactions", "eth_fillTransaction", "eth_sendTransaction", "eth_sign",
			"eth_accounts", "admin_peers", "debug_traceTransaction", "personal_unlockAccount", "txpool_content", "getBalance"},
		"solana": {"requestAirdrop", "getProgramAccounts", "getLargestAccounts", "eth_call", "admin_peers", "stop"},
		"bip122": {"stop", "dumpprivkey", "sendtoaddress", "walletpassphrase", "importprivkey", "getbalance",
			"listunspent", "getpeerinfo", "addnode", "eth_call"},
	}
)

// methodNode is a fake upstream that records every method it receives.
type methodNode struct {
	*fakeNode
	mu   sync.Mutex
	seen map[string]int
}

func mustMethodNode(tb testing.TB) *methodNode {
	n := &methodNode{seen: map[string]int{}}
	n.fakeNode = MustNode(tb, func(w http.ResponseWriter, r *http.Request, body []byte) {
		var reqs []struct {
			Method string `json:"method"`
		}
		if strings.HasPrefix(string(body), "[") {
			_ = json.Unmarshal(body, &reqs)
		} else {
			reqs = make([]struct {
				Method string `json:"method"`
			}, 1)
			_ = json.Unmarshal(body, &reqs[0])
		}
		n.mu.Lock()
		for _, q := range reqs {
			n.seen[q.Method]++
		}
		n.mu.Unlock()
		answering(echoMethod)(w, r, body)
	})
	return n
}

func (n *methodNode) Seen(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.seen[method]
}

func batchOf(methods []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, m := range methods {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"jsonrpc":"2.0","id":` + jsonInt(i) + `,"method":"` + m + `","params":[]}`)
	}
	b.WriteByte(']')
	return b.String()
}

func jsonInt(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// Every namespace of networks.json has an allowlist, and test samples.
func TestAllowlists_CoverNetworks(t *testing.T) {
	h := MustProxy(t, nil)
	for _, n := range h.p.cfg.Networks.All() {
		if allowlists[n.ChainNamespace] == nil {
			t.Errorf("%s: namespace %s has no allowlist", n.CAIPNetworkID, n.ChainNamespace)
		}
		if allowedSamples[n.ChainNamespace] == nil || refusedSamples[n.ChainNamespace] == nil {
			t.Errorf("%s: namespace %s has no test samples", n.CAIPNetworkID, n.ChainNamespace)
		}
	}
}

// On one network of each namespace, the allowed samples reach the upstream
// and are answered; the refused ones, alone or inside a batch of allowed
// ones, get -32601 and never reach it.
func TestProxy_Allowlist(t *testing.T) {
	h := MustProxy(t, nil)
	reg := h.p.cfg.Networks
	tested := map[string]bool{}
	for _, n := range reg.All() {
		ns := n.ChainNamespace
		if tested[ns] {
			continue
		}
		tested[ns] = true
		t.Run(ns, func(t *testing.T) {
			node := mustMethodNode(t)
			if err := reg.SetUpstreams(n.CAIPNetworkID, []string{node.srv.URL}); err != nil {
				t.Fatal(err)
			}
			post := func(body string) string {
				t.Helper()
				r := httptest.NewRequest(http.MethodPost, "/v1?chainId="+n.CAIPNetworkID+"&projectId=p1", strings.NewReader(body))
				code, res := h.Do(t, r)
				if code != http.StatusOK {
					t.Fatalf("status %d: %s", code, res)
				}
				return res
			}
			for _, m := range allowedSamples[ns] {
				wantResult(t, MustReply(t, post(`{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":[]}`)), `"`+m+`"`)
			}
			for _, m := range refusedSamples[ns] {
				r := MustReply(t, post(`{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":[]}`))
				wantCode(t, r, jsonrpc.CodeMethodNotFound)
				if r.Error.Message != "method "+m+" is not allowed through the latchd RPC proxy" {
					t.Fatalf("message %q", r.Error.Message)
				}
			}
			// A batch mixing both: each entry is judged on its own.
			mixed := append(append([]string(nil), allowedSamples[ns][:2]...), refusedSamples[ns]...)
			rs := MustReplies(t, post(batchOf(mixed)))
			if len(rs) != len(mixed) {
				t.Fatalf("%d answers to %d entries", len(rs), len(mixed))
			}
			for i, r := range rs {
				if i < 2 {
					wantResult(t, r, `"`+mixed[i]+`"`)
				} else {
					wantCode(t, r, jsonrpc.CodeMethodNotFound)
				}
			}
			for _, m := range refusedSamples[ns] {
				if got := node.Seen(m); got != 0 {
					t.Errorf("upstream saw refused %s %d times", m, got)
				}
			}
			for _, m := range allowedSamples[ns] {
				if node.Seen(m) == 0 {
					t.Errorf("upstream never saw allowed %s", m)
				}
			}
		})
	}
	for ns := range allowlists {
		if !tested[ns] {
			t.Errorf("namespace %s has an allowlist but no network to test it on", ns)
		}
	}
}

// requestAirdrop is allowed on a dev network of its namespace only.
func TestProxy_AllowlistDevOnly(t *testing.T) {
	h := MustProxy(t, nil)
	reg := h.p.cfg.Networks
	dev := &network.Network{CAIPNetworkID: "solana:devlocal", ChainNamespace: "solana", ID: json.RawMessage(`"devlocal"`), Name: "Solana dev", Dev: true}
	if err := reg.Add(dev); err != nil {
		t.Fatal(err)
	}
	node := mustMethodNode(t)
	for _, chain := range []string{"solana:devlocal", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"} {
		if err := reg.SetUpstreams(chain, []string{node.srv.URL}); err != nil {
			t.Fatal(err)
		}
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["x",1]}`
	_, res := h.Do(t, httptest.NewRequest(http.MethodPost, "/v1?chainId=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", strings.NewReader(body)))
	wantCode(t, MustReply(t, res), jsonrpc.CodeMethodNotFound)
	if node.Seen("requestAirdrop") != 0 {
		t.Fatal("requestAirdrop on a public devnet reached the upstream")
	}
	_, res = h.Do(t, httptest.NewRequest(http.MethodPost, "/v1?chainId=solana:devlocal", strings.NewReader(body)))
	wantResult(t, MustReply(t, res), `"requestAirdrop"`)
}
