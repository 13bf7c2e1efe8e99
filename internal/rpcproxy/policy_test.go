package rpcproxy

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		ns, method string
		dev        bool
		want       methodKind
	}{
		{"eip155", "eth_call", false, kindRead},
		{"eip155", "net_version", false, kindRead},
		{"eip155", "web3_clientVersion", false, kindRead},
		{"eip155", "eth_sendRawTransaction", false, kindSend},
		{"eip155", "eth_getFilterChanges", false, kindStateful},
		{"eip155", "eth_sendTransaction", false, kindRefused},
		{"eip155", "eth_sendUserOperation", false, kindRefused},
		{"eip155", "eth_resend", false, kindRefused},
		{"eip155", "eth_pendingTransactions", false, kindRefused},
		{"eip155", "eth_fillTransaction", false, kindRefused},
		{"eip155", "debug_traceCall", false, kindRefused},
		{"eip155", "getBalance", false, kindRefused},
		{"solana", "getBalance", false, kindRead},
		{"solana", "sendTransaction", false, kindSend},
		{"solana", "requestAirdrop", false, kindRefused},
		{"solana", "requestAirdrop", true, kindSend},
		{"solana", "getProgramAccounts", false, kindRefused},
		{"solana", "admin_peers", false, kindRefused},
		{"solana", "eth_call", false, kindRefused},
		{"bip122", "getblockcount", false, kindRead},
		{"bip122", "sendrawtransaction", false, kindSend},
		{"bip122", "stop", true, kindRefused},
		{"bip122", "dumpprivkey", false, kindRefused},
		{"bip122", "getBalance", false, kindRefused},
		{"cosmos", "getBalance", false, kindRefused},
		{"cosmos", "eth_call", false, kindRefused},
	} {
		if got := classify(tt.ns, tt.method, tt.dev); got != tt.want {
			t.Errorf("classify(%s, %s, dev %v) = %d, want %d", tt.ns, tt.method, tt.dev, got, tt.want)
		}
	}
}

func TestProxy_cacheTTL(t *testing.T) {
	p := New(Config{NearHeadTTL: time.Second, ImmutableTTL: time.Hour})
	const safe = 100
	for _, tt := range []struct {
		method, params, result string
		want                   time.Duration
	}{
		{"eth_chainId", `[]`, `"0x1"`, 0},
		{"eth_blockNumber", `[]`, `"0x1"`, time.Second},
		{"eth_getBalance", `["0xa","latest"]`, `"0x1"`, time.Second},
		{"eth_getBalance", `["0xa"]`, `"0x1"`, time.Second},
		{"eth_getBalance", `["0xa","0x64"]`, `"0x1"`, time.Hour},
		{"eth_getBalance", `["0xa","0x65"]`, `"0x1"`, time.Second},
		{"eth_getTransactionCount", `["0xa","pending"]`, `"0x1"`, noCache},
		{"eth_call", `[{},"earliest"]`, `"0x"`, time.Hour},
		{"eth_getStorageAt", `["0xa","0x0","0x10"]`, `"0x"`, time.Hour},
		{"eth_getBlockByNumber", `["0x10",false]`, `{}`, time.Hour},
		{"eth_getBlockByNumber", `["finalized",false]`, `{}`, time.Second},
		{"eth_getBlockByNumber", `["pending",false]`, `{}`, noCache},
		{"eth_getTransactionReceipt", `["0x1"]`, `null`, noCache},
		{"eth_getTransactionReceipt", `["0x1"]`, `{"blockNumber":"0x10"}`, time.Hour},
		{"eth_getTransactionReceipt", `["0x1"]`, `{"blockNumber":"0x70"}`, time.Second},
		{"eth_getTransactionByHash", `["0x1"]`, `{"blockNumber":null}`, time.Second},
		{"eth_getBlockByHash", `["0x1",false]`, `{"number":"0x1"}`, time.Hour},
		{"eth_getLogs", `[{"fromBlock":"0x1","toBlock":"0x64"}]`, `[]`, time.Hour},
		{"eth_getLogs", `[{"fromBlock":"0x1","toBlock":"0x65"}]`, `[]`, time.Second},
		{"eth_getLogs", `[{"fromBlock":"0x1"}]`, `[]`, time.Second},
		{"eth_getLogs", `[{"toBlock":"pending"}]`, `[]`, noCache},
		{"eth_getLogs", `[{"blockHash":"0xab"}]`, `[]`, time.Second},
		{"eth_getProof", `["0xa",[],"latest"]`, `{}`, time.Second},
		{"eth_protocolVersion", `[]`, `"0x41"`, noCache},
	} {
		if got := p.cacheTTL(tt.method, json.RawMessage(tt.params), json.RawMessage(tt.result), safe); got != tt.want {
			t.Errorf("cacheTTL(%s %s → %s) = %v, want %v", tt.method, tt.params, tt.result, got, tt.want)
		}
	}
	// Unknown head: nothing is immutable.
	if got := p.cacheTTL("eth_getBalance", json.RawMessage(`["0xa","0x1"]`), json.RawMessage(`"0x1"`), 0); got != time.Second {
		t.Errorf("unknown head: %v", got)
	}
}

func TestUpstream_ErrorRateDecays(t *testing.T) {
	now := time.Unix(1000, 0)
	u := &upstream{}
	u.record(false, 0, now)
	fresh := u.score(now)
	if fresh <= 0 || u.score(now.Add(5*time.Minute)) > fresh/500 {
		t.Fatalf("score fresh %v later %v", fresh, u.score(now.Add(5*time.Minute)))
	}
}

func TestIsLocalHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "127.0.0.1": true, "::1": true, "10.1.2.3": true, "192.168.0.7": true, "fd00::1": true,
		"8.8.8.8": false, "rpc.example.com": false, "2001:db8::1": false, "": false,
	} {
		if got := isLocalHost(host); got != want {
			t.Errorf("isLocalHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// A local upstream is asked for identity encoding (gzip costs CPU on both
// sides of a free link); the Accept-Encoding header reaches it as sent.
func TestProxy_LocalUpstreamUncompressed(t *testing.T) {
	var enc atomic.Value
	node := MustNode(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		enc.Store(r.Header.Get("Accept-Encoding"))
		answering(echoMethod)(w, r, body)
	})
	h := MustProxy(t, nil, node)
	if code, res := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1"]}`); code != http.StatusOK || !strings.Contains(res, "eth_getFilterChanges") {
		t.Fatalf("answer %d %s", code, res)
	}
	if got := enc.Load(); got != "identity" {
		t.Fatalf("Accept-Encoding %q, want identity", got)
	}
}
