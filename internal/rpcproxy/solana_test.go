package rpcproxy

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/solana"
	"github.com/latchkit/latch/internal/solanadev"
)

// solanaProxy is a proxy whose networks are the Solana dev network (a dev
// network) and a public-looking solana network with the same upstream, plus
// extra upstreams put in front of the dev network's own.
func solanaProxy(t *testing.T, front ...string) (h *harness, dev, public string, n *solanadev.Network) {
	t.Helper()
	n = solanadev.StartForTest(t, "")
	reg, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	dev = n.Info.CAIPNetworkID
	ref, _ := json.Marshal(dev[len("solana:"):])
	if err := reg.Add(&network.Network{CAIPNetworkID: dev, ChainNamespace: "solana", ID: ref, Name: "Latch Solana Dev", Testnet: true, Dev: true}); err != nil {
		t.Fatal(err)
	}
	public = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" // data/networks.json's Solana Devnet: not a dev network of latchd
	urls := append(append([]string(nil), front...), n.Info.RPCURL)
	for _, id := range []string{dev, public} {
		if err := reg.SetUpstreams(id, urls); err != nil {
			t.Fatal(err)
		}
	}
	h = &harness{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	h.p = New(Config{Networks: reg, Now: h.Now, Logger: discardLogger()})
	return h, dev, public, n
}

func (h *harness) postTo(t *testing.T, chain, body string) rpcReply {
	t.Helper()
	status, res := h.Do(t, httptest.NewRequest(http.MethodPost, "/v1?chainId="+chain+"&projectId=p1", strings.NewReader(body)))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, res)
	}
	return MustReply(t, res)
}

func solanaCall(method string, params ...any) string {
	if params == nil {
		params = []any{}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return string(b)
}

func lamportsOf(t *testing.T, r rpcReply) uint64 {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error %+v", r.Error)
	}
	var v struct {
		Value uint64 `json:"value"`
	}
	if err := json.Unmarshal(r.Result, &v); err != nil {
		t.Fatalf("%s: %v", r.Result, err)
	}
	return v.Value
}

// The method policy on a real Solana node (the dev network): reads and
// sendTransaction reach it, requestAirdrop only on a dev network, anything
// else is refused with a clear error and never reaches it.
func TestProxy_SolanaPolicyOnDevNetwork(t *testing.T) {
	h, dev, public, n := solanaProxy(t)
	acct := n.Info.Accounts[4]
	processed := map[string]string{"commitment": "processed"}

	t.Run("Reads", func(t *testing.T) {
		if got := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", acct, processed))); got != solanadev.AccountLamports {
			t.Fatalf("balance %d", got)
		}
		r := h.postTo(t, dev, solanaCall("getTokenAccountsByOwner", acct, map[string]string{"mint": n.Info.USDCMint}, map[string]string{"encoding": "jsonParsed"}))
		if r.Error != nil || !strings.Contains(string(r.Result), `"uiAmountString":"10000"`) {
			t.Fatalf("token accounts: %s %+v", r.Result, r.Error)
		}
	})
	t.Run("SendTransaction", func(t *testing.T) {
		from, to := solanadev.DevKey(solanadev.TestMnemonic, 4), solanadev.DevKey(solanadev.TestMnemonic, 5)
		var bh struct {
			Value struct{ Blockhash string } `json:"value"`
		}
		json.Unmarshal(h.postTo(t, dev, solanaCall("getLatestBlockhash", processed)).Result, &bh)
		wire, _ := solanadev.SignTransaction(from, nil, solana.MustParseAddress(bh.Value.Blockhash), solanadev.TransferSOL(from.Address, to.Address, 1_000_000))
		r := h.postTo(t, dev, solanaCall("sendTransaction", wire, map[string]any{"encoding": "base64", "preflightCommitment": "confirmed", "maxRetries": 0}))
		if r.Error != nil {
			t.Fatalf("sendTransaction: %+v", r.Error)
		}
		if got := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", to.Address.String(), processed))); got != solanadev.AccountLamports+1_000_000 {
			t.Fatalf("recipient balance %d", got)
		}
	})
	t.Run("AirdropOnlyOnDevNetworks", func(t *testing.T) {
		before := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", acct, processed)))
		r := h.postTo(t, public, solanaCall("requestAirdrop", acct, 1_000_000_000))
		wantCode(t, r, -32601)
		if !strings.Contains(r.Error.Message, "requestAirdrop is not allowed through the latchd RPC proxy") {
			t.Fatalf("message %q", r.Error.Message)
		}
		if got := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", acct, processed))); got != before {
			t.Fatalf("a refused airdrop reached the node: %d → %d", before, got)
		}
		if r := h.postTo(t, dev, solanaCall("requestAirdrop", acct, 1_000_000_000)); r.Error != nil {
			t.Fatalf("dev airdrop: %+v", r.Error)
		}
		if got := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", acct, processed))); got != before+1_000_000_000 {
			t.Fatalf("after the airdrop: %d", got)
		}
	})
	t.Run("UnknownAndScansRefused", func(t *testing.T) {
		for _, m := range []string{"getProgramAccounts", "getLargestAccounts", "eth_call", "validatorExit"} {
			r := h.postTo(t, dev, solanaCall(m))
			wantCode(t, r, -32601)
			if r.Error.Message != fmt.Sprintf("method %s is not allowed through the latchd RPC proxy", m) {
				t.Fatalf("%s: %q", m, r.Error.Message)
			}
		}
	})
	t.Run("NodeErrorsPassThrough", func(t *testing.T) {
		r := h.postTo(t, dev, solanaCall("getBalance", "not-an-address"))
		wantCode(t, r, -32602)
	})
}

// A failing first upstream fails over to the dev network.
func TestProxy_SolanaFailover(t *testing.T) {
	down := MustNode(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(http.StatusBadGateway) })
	h, dev, _, n := solanaProxy(t, down.srv.URL)
	if got := lamportsOf(t, h.postTo(t, dev, solanaCall("getBalance", n.Info.Accounts[6], map[string]string{"commitment": "processed"}))); got != solanadev.AccountLamports {
		t.Fatalf("balance %d", got)
	}
	if down.Hits() == 0 {
		t.Fatal("the first upstream was not tried")
	}
}

// Answers are cached by commitment: processed never, confirmed briefly,
// finalized longer, a finalized transaction for good; statuses never.
func TestProxy_SolanaCacheByCommitment(t *testing.T) {
	node := MustNode(t, answering(func(method string, params json.RawMessage) (string, string) {
		switch method {
		case "getTransaction":
			if strings.Contains(string(params), "missing") {
				return "null", ""
			}
			return `{"slot":5,"meta":{"err":null}}`, ""
		case "getGenesisHash":
			return `"HQ2bJg89gcM1yyS9v27XxUxWLXzcssKsAf2xrLSp5Bd2"`, ""
		}
		return `{"context":{"slot":5},"value":1}`, ""
	}))
	reg, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	const chain = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
	reg.SetUpstreams(chain, []string{node.srv.URL})
	h := &harness{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	h.p = New(Config{Networks: reg, Now: h.Now, Logger: discardLogger(), NearHeadTTL: time.Second, SolanaFinalizedTTL: 5 * time.Second, ImmutableTTL: time.Hour})
	addr := "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96"
	// calls makes the request twice, d apart, and returns the node's hits for the pair.
	calls := func(body string, d time.Duration) int {
		before := node.Hits()
		h.postTo(t, chain, body)
		h.Advance(d)
		h.postTo(t, chain, body)
		return node.Hits() - before
	}
	for _, tc := range []struct {
		name string
		body string
		gap  time.Duration
		hits int
	}{
		{"ProcessedNever", solanaCall("getBalance", addr, map[string]string{"commitment": "processed"}), 0, 2},
		{"ConfirmedWithinTTL", solanaCall("getBalance", addr, map[string]string{"commitment": "confirmed"}), 500 * time.Millisecond, 1},
		{"ConfirmedExpires", solanaCall("getAccountInfo", addr, map[string]string{"commitment": "confirmed"}), 1500 * time.Millisecond, 2},
		{"FinalizedOutlivesConfirmed", solanaCall("getBalance", addr, map[string]string{"commitment": "finalized"}), 3 * time.Second, 1},
		{"DefaultIsFinalized", solanaCall("getBalance", addr), 3 * time.Second, 1},
		{"FinalizedExpires", solanaCall("getSlot"), 6 * time.Second, 2},
		{"MinContextSlotNever", solanaCall("getBalance", addr, map[string]any{"commitment": "finalized", "minContextSlot": 9}), 0, 2},
		{"FinalizedTransactionImmutable", solanaCall("getTransaction", "sig1", map[string]any{"maxSupportedTransactionVersion": 0}), 30 * time.Minute, 1},
		{"ConfirmedTransactionBrief", solanaCall("getTransaction", "sig2", map[string]any{"commitment": "confirmed"}), 2 * time.Second, 2},
		{"MissingTransactionNever", solanaCall("getTransaction", "missing"), 0, 2},
		{"StatusesNever", solanaCall("getSignatureStatuses", []string{"sig1"}), 0, 2},
		{"SimulationsNever", solanaCall("simulateTransaction", "AQID", map[string]string{"encoding": "base64"}), 0, 2},
		{"GenesisForever", solanaCall("getGenesisHash"), 100 * time.Hour, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := calls(tc.body, tc.gap); got != tc.hits {
				t.Fatalf("node hits = %d, want %d", got, tc.hits)
			}
		})
	}
}
