package solana

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
)

func TestParseAddress(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: "" for valid, else a part of the message
	}{
		{"11111111111111111111111111111111", ""},
		{"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", ""},
		{"oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", ""},
		{"", "is not a Solana address (32 to 44 base58 characters)"},
		{"1111111111111111111111111111111", "is not a Solana address"},                                // 31 characters
		{strings.Repeat("1", 45), "is not a Solana address"},                                          // 45
		{"0eYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", "is not a Solana address"},                    // 0 is not base58
		{"OeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96", "is not a Solana address"},                    // nor O
		{"0x" + strings.Repeat("a", 40), "is not a Solana address"},                                   // an EVM address
		{strings.Repeat("z", 44), "does not decode to a 32-byte Solana address"},                      // 33 bytes
		{"oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq9", "does not decode to a 32-byte Solana address"}, // 31 bytes
	} {
		a, err := ParseAddress("address", tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want == "" && a.String() != tc.in:
			t.Errorf("%q round-trips to %q", tc.in, a.String())
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || apperr.Code(err) != apperr.Invalid):
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestClient_Batch(t *testing.T) {
	var downHits int
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downHits++
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var reqs []struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
		}
		json.Unmarshal(body, &reqs)
		var out []string
		for i := len(reqs) - 1; i >= 0; i-- { // answers in any order
			if reqs[i].Method == "getSlot" {
				out = append(out, `{"jsonrpc":"2.0","id":`+itoa(reqs[i].ID)+`,"result":42}`)
			} else {
				out = append(out, `{"jsonrpc":"2.0","id":`+itoa(reqs[i].ID)+`,"error":{"code":-32601,"message":"Method not found"}}`)
			}
		}
		io.WriteString(w, "["+strings.Join(out, ",")+"]")
	}))
	defer up.Close()
	c, err := NewClient([]string{down.URL, up.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var slot uint64
	calls := []Call{{Method: "getSlot", Result: &slot}, {Method: "getNothing"}}
	if err := c.Batch(context.Background(), calls); err != nil {
		t.Fatal(err)
	}
	if downHits != 1 || slot != 42 || calls[0].Err != nil {
		t.Fatalf("failover: hits %d, slot %d, %v", downHits, slot, calls[0].Err)
	}
	var rpcErr *RPCError
	if e, ok := calls[1].Err.(*RPCError); !ok || e.Code != -32601 {
		t.Fatalf("node error: %v", calls[1].Err)
	} else {
		rpcErr = e
	}
	// A node's JSON-RPC error is its answer: not retried on another upstream.
	c2, _ := NewClient([]string{up.URL, down.URL}, nil)
	downHits = 0
	if err := c2.Do(context.Background(), nil, "getNothing"); err == nil || err.Error() != rpcErr.Error() || downHits != 0 {
		t.Fatalf("Do: %v, down hits %d", err, downHits)
	}
	if _, err := NewClient(nil, nil); err == nil {
		t.Fatal("a client without upstreams")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
