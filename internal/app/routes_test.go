package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestRoutes_EveryRouteHasAGuardClass(t *testing.T) {
	seen := map[string]bool{}
	for _, rt := range routes {
		key := rt.listener + " " + rt.pattern
		if rt.guard.String() == "" {
			t.Errorf("%s: no guard class (%d)", key, rt.guard)
		}
		if rt.listener != listenerAPI && rt.listener != listenerFrame && rt.listener != listenerAdmin {
			t.Errorf("%s: unknown listener", key)
		}
		if (rt.handler == nil) == (rt.around == nil) {
			t.Errorf("%s: wants a handler or an around (not both)", key)
		}
		if seen[key] {
			t.Errorf("%s: declared twice", key)
		}
		seen[key] = true
	}
	t.Run("ErrNoClass", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("a route without a guard class was mounted")
			}
		}()
		(&Main{}).guarded(0, http.NotFoundHandler())
	})
}

// routePath is a request path for a route pattern, its wildcards filled in.
func routePath(path string) string {
	path = strings.ReplaceAll(path, "{$}", "")
	return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllStringFunc(path, func(w string) string {
		if w == "{address}" {
			return "0x000000000000000000000000000000000000dEaD"
		}
		return "x"
	})
}

// runServeMain starts latchd serve (no dev chains unless tweak sets Dev) on
// :0 until the test ends.
func runServeMain(t *testing.T, tweak func(*Config)) *Main {
	t.Helper()
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second}
	if tweak != nil {
		tweak(&cfg)
	}
	m := NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func doRequest(t *testing.T, method, url string, hdr ...string) (int, string) {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader("{}")
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Every guarded route of the table refuses a request its guard does not
// admit: the test walks the table, so a new route is covered as it is added.
func TestRoutes_GuardsApply(t *testing.T) {
	const token = "routes-admin-token"
	m := runServeMain(t, func(c *Config) { c.AdminToken = token })
	p := &project.Project{Name: "routes", Origins: []string{"https://app.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	noAdmin := runServeMain(t, nil)
	p2 := &project.Project{Name: "routes", Features: project.DefaultFeatures()}
	if err := noAdmin.Projects.Create(context.Background(), p2); err != nil {
		t.Fatal(err)
	}
	const evil = "https://evil.example"
	for _, rt := range routes {
		method, path, ok := strings.Cut(rt.pattern, " ")
		if rt.listener != listenerAPI || rt.around != nil || !ok {
			continue
		}
		url := m.APIURL() + routePath(path)
		withProject := url + "?projectId=" + p.ID
		t.Run(rt.pattern, func(t *testing.T) {
			switch rt.guard {
			case GuardProject:
				if status, body := doRequest(t, method, url); status != http.StatusUnauthorized {
					t.Errorf("without projectId: %d %s, want 401", status, body)
				}
				if status, body := doRequest(t, method, withProject, "Origin", evil); status != http.StatusForbidden || !strings.Contains(body, "Origin not allowed") {
					t.Errorf("from a disallowed Origin: %d %s, want 403", status, body)
				}
			case GuardAdmin:
				if status, body := doRequest(t, method, url, "Authorization", "Bearer "+token); status != http.StatusUnauthorized {
					t.Errorf("without projectId: %d %s, want 401", status, body)
				}
				if status, body := doRequest(t, method, withProject, "Origin", evil, "Authorization", "Bearer "+token); status != http.StatusForbidden {
					t.Errorf("from a disallowed Origin: %d %s, want 403", status, body)
				}
				for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
					if status, body := doRequest(t, method, withProject, "Authorization", auth); status != http.StatusUnauthorized || !strings.Contains(body, "admin token") {
						t.Errorf("Authorization %q: %d %s, want 401", auth, status, body)
					}
				}
				if status, body := doRequest(t, method, noAdmin.APIURL()+routePath(path)+"?projectId="+p2.ID, "Authorization", "Bearer "+token); status != http.StatusForbidden {
					t.Errorf("no admin token configured: %d %s, want 403", status, body)
				}
			case GuardFrameOrigin:
				if status, body := doRequest(t, method, url); status != http.StatusUnauthorized {
					t.Errorf("without projectId: %d %s, want 401", status, body)
				}
				// Neither a stranger nor the project's own page: only the frame.
				for _, origin := range []string{evil, "https://app.example"} {
					if status, body := doRequest(t, method, withProject, "Origin", origin); status != http.StatusForbidden || !strings.Contains(body, "Origin not allowed") {
						t.Errorf("from Origin %s: %d %s, want 403", origin, status, body)
					}
				}
			case GuardDev:
				if status, body := doRequest(t, method, url); status != http.StatusNotFound {
					t.Errorf("latchd serve: %d %s, want 404 (dev routes are not mounted)", status, body)
				}
			case GuardOpen:
			default:
				t.Fatalf("guard class %d", rt.guard)
			}
		})
	}
}

// In latchd dev the dev routes are mounted and refuse pages from other
// than local origins.
func TestRoutes_DevGuard(t *testing.T) {
	m := runServeMain(t, func(c *Config) { c.Dev, c.DevChains = true, []uint64{31337} })
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt.pattern, " ")
		if rt.guard != GuardDev {
			continue
		}
		t.Run(rt.pattern, func(t *testing.T) {
			url := m.APIURL() + routePath(path)
			if status, body := doRequest(t, method, url, "Origin", "https://evil.example"); status != http.StatusForbidden || !strings.Contains(body, "Origin not allowed") {
				t.Errorf("from a non-local Origin: %d %s, want 403", status, body)
			}
			status, _ := doRequest(t, method, url, "Origin", "http://localhost:5173")
			if status == http.StatusForbidden || status == http.StatusNotFound {
				t.Errorf("from a local Origin: %d, want the route to answer", status)
			}
			// DNS rebinding: the page's own name, pointed at 127.0.0.1, as
			// Host, and no Origin (a same-origin GET sends none).
			for host, want := range map[string]bool{"rebind.evil.example:8080": false, "localhost:8080": true, "app.localhost": true, "127.0.0.1:8080": true, "[::1]:8080": true} {
				req, _ := http.NewRequest(method, url, strings.NewReader("{}"))
				req.Host = host
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if refused := resp.StatusCode == http.StatusForbidden && strings.Contains(string(b), "Host not allowed"); refused == want {
					t.Errorf("Host %s: %d %s, want allowed=%v", host, resp.StatusCode, b, want)
				}
			}
		})
	}
}

// On the RPC route the IP rate limit answers as JSON-RPC: 429, Retry-After
// and an error per request id; elsewhere it keeps the REST body.
func TestRoutes_IPRateLimitOnJSONRPC(t *testing.T) {
	m := runServeMain(t, func(c *Config) { c.IPRateLimit = 1 })
	post := func(path, body string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Post(m.APIURL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	post("/v1?chainId=eip155:1", `{}`) // spends the one request of the minute
	type rpcError struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    struct {
				RetryAfter int `json:"retryAfter"`
			} `json:"data"`
		} `json:"error"`
	}
	check := func(t *testing.T, resp *http.Response, e rpcError, wantID string) {
		t.Helper()
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		if e.JSONRPC != "2.0" || string(e.ID) != wantID || e.Error.Code != -32005 || e.Error.Data.RetryAfter < 1 || !strings.Contains(e.Error.Message, "request rate per IP") {
			t.Fatalf("answer %+v (id %s)", e, e.ID)
		}
	}
	for _, path := range []string{"/v1?chainId=eip155:1", "/v1/?chainId=eip155:1"} {
		t.Run(path, func(t *testing.T) {
			resp, b := post(path, `{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}`)
			var e rpcError
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			check(t, resp, e, "7")
		})
	}
	t.Run("Batch", func(t *testing.T) {
		resp, b := post("/v1?chainId=eip155:1", `[{"jsonrpc":"2.0","id":"a","method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_x"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]`)
		var es []rpcError
		if err := json.Unmarshal(b, &es); err != nil || len(es) != 2 {
			t.Fatalf("%s: %v", b, err)
		}
		check(t, resp, es[0], `"a"`)
		check(t, resp, es[1], "2")
	})
	t.Run("REST", func(t *testing.T) {
		resp, b := post("/e", `{}`)
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), `"rate_limited"`) {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
	})
}

func TestCLI_Routes(t *testing.T) {
	code, out, errOut := run(t, "routes")
	if code != 0 {
		t.Fatalf("routes: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != len(routes)+1 {
		t.Fatalf("%d lines for %d routes:\n%s", len(lines), len(routes), out)
	}
	header := lines[0]
	col := func(name string) int { return strings.Index(header, name) }
	if col("METHOD") != 0 || col("PATTERN") < 0 || col("GUARD") < 0 || col("LISTENER") < 0 {
		t.Fatalf("header %q", header)
	}
	for i, rt := range Routes() {
		line := lines[i+1]
		method := rt.Method
		if method == "" {
			method = "*"
		}
		want := []struct {
			at   int
			text string
		}{{0, method}, {col("PATTERN"), rt.Path}, {col("GUARD"), rt.Guard.String()}, {col("LISTENER"), rt.Listener}}
		for _, w := range want {
			if !strings.HasPrefix(line[min(w.at, len(line)):], w.text+" ") && line[min(w.at, len(line)):] != w.text {
				t.Fatalf("line %q: want %q at column %d", line, w.text, w.at)
			}
		}
	}
	if code, _, _ := run(t, "routes", "extra"); code == 0 {
		t.Fatal("routes accepted an argument")
	}
	if _, out, _ := run(t, "help"); !strings.Contains(out, "latchd routes") {
		t.Fatal("help does not list latchd routes")
	}
}

// /metrics names upstream hosts: the API listener does not serve it, the
// admin listener does, and without --admin-addr no listener does.
func TestRoutes_MetricsOnAdminListenerOnly(t *testing.T) {
	m := runServeMain(t, func(c *Config) { c.AdminAddr = "127.0.0.1:0" })
	if status, body := doRequest(t, http.MethodGet, m.APIURL()+"/metrics"); status != http.StatusNotFound {
		t.Fatalf("API listener /metrics: %d %s, want 404", status, body)
	}
	if status, body := doRequest(t, http.MethodGet, m.AdminURL()+"/metrics"); status != http.StatusOK || !strings.Contains(body, "latch_http_requests_total") {
		t.Fatalf("admin listener /metrics: %d %.200s, want the metrics", status, body)
	}
	if status, _ := doRequest(t, http.MethodGet, m.AdminURL()+"/v1/networks"); status != http.StatusNotFound {
		t.Fatalf("admin listener serves API routes: %d", status)
	}
	if none := runServeMain(t, nil); none.AdminURL() != "" {
		t.Fatalf("without --admin-addr: admin listener at %s", none.AdminURL())
	}
}

// The image proxy is mounted behind the project guard and fetches from
// public addresses only.
func TestRoutes_ImageProxy(t *testing.T) {
	m := runServeMain(t, nil)
	p := &project.Project{Name: "images", Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	src := "https://" + strings.TrimPrefix(m.APIURL(), "http://") + "/healthz"
	status, body := doRequest(t, http.MethodGet, m.APIURL()+"/v1/image?projectId="+p.ID+"&url="+src)
	if status != http.StatusForbidden || !strings.Contains(body, "not a public address") {
		t.Fatalf("image from loopback: %d %s, want 403", status, body)
	}
}
