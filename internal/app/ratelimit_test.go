package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/project"
)

// rpcNode is a fake chain node that answers every entry with "0x1".
func rpcNode(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var reqs []struct {
			ID json.RawMessage `json:"id"`
		}
		batch := strings.HasPrefix(strings.TrimSpace(string(body)), "[")
		if batch {
			_ = json.Unmarshal(body, &reqs)
		} else {
			reqs = make([]struct {
				ID json.RawMessage `json:"id"`
			}, 1)
			_ = json.Unmarshal(body, &reqs[0])
		}
		var out []string
		for _, q := range reqs {
			out = append(out, `{"jsonrpc":"2.0","id":`+string(q.ID)+`,"result":"0x1"}`)
		}
		w.Header().Set("Content-Type", "application/json")
		if batch {
			io.WriteString(w, "["+strings.Join(out, ",")+"]")
		} else {
			io.WriteString(w, out[0])
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// rpcHarness is a latchd in serve mode whose eip155:1 goes to a fake node,
// with a project allowing https://app.example.
type rpcHarness struct {
	m         *Main
	projectID string
}

func mustRPCHarness(t *testing.T, tweak func(*Config)) *rpcHarness {
	t.Helper()
	m := runServeMain(t, tweak)
	if err := m.Networks.SetUpstreams("eip155:1", []string{rpcNode(t).URL}); err != nil {
		t.Fatal(err)
	}
	p := &project.Project{Name: "rpc", Origins: []string{"https://app.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return &rpcHarness{m: m, projectID: p.ID}
}

// post sends body to the RPC proxy through the whole API handler, from remoteAddr.
func (h *rpcHarness) post(t *testing.T, remoteAddr, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId="+h.projectID, strings.NewReader(body))
	r.RemoteAddr = remoteAddr
	r.Header.Set("Origin", "https://app.example")
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.m.api.Handler.ServeHTTP(w, r)
	return w
}

func rpcBatch(n int) string {
	entries := make([]string, n)
	for i := range entries {
		entries[i] = `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`
	}
	return "[" + strings.Join(entries, ",") + "]"
}

// Issue 15 finding 6: a batch costs one event per entry against the per-IP
// (--ip-rate-limit) and per-project (--rpc-project-rate-limit) budgets.
func TestRPC_BatchCostsItsEntries(t *testing.T) {
	for _, tt := range []struct {
		name  string
		tweak func(*Config)
	}{
		{"IP", func(c *Config) { c.IPRateLimit = 10 }},
		{"Project", func(c *Config) { c.RPCProjectLimit = 10 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := mustRPCHarness(t, tt.tweak)
			if w := h.post(t, "203.0.113.9:1000", rpcBatch(10)); w.Code != http.StatusOK {
				t.Fatalf("10-entry batch: %d %s", w.Code, w.Body)
			}
			w := h.post(t, "203.0.113.9:1000", `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`)
			if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "-32005") {
				t.Fatalf("after a 10-entry batch: %d %s, want 429 (budget 10)", w.Code, w.Body)
			}
		})
	}
}

func TestParseFlags_IPv6Prefix(t *testing.T) {
	for _, tt := range []struct {
		arg     string
		want    int
		wantErr bool
	}{
		{"", 64, false},
		{"56", 56, false},
		{"128", 128, false},
		{"31", 0, true},
		{"129", 0, true},
		{"0", 0, true},
	} {
		var cfg Config
		fs, finish := flagSet("t", &cfg, io.Discard)
		args := []string{}
		if tt.arg != "" {
			args = []string{"--ipv6-prefix", tt.arg}
		}
		err := parseFlags(fs, args, func(string) string { return "" })
		if err == nil {
			err = finish()
		}
		if tt.wantErr {
			if err == nil || !strings.Contains(err.Error(), "--ipv6-prefix must be between 32 and 128") {
				t.Errorf("--ipv6-prefix %s: err %v, want a range error", tt.arg, err)
			}
			continue
		}
		if err != nil || cfg.IPv6Prefix != tt.want {
			t.Errorf("--ipv6-prefix %q: %d %v, want %d", tt.arg, cfg.IPv6Prefix, err, tt.want)
		}
	}
}
