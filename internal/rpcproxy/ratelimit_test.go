package rpcproxy

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
)

// refusing is a Limiter that refuses every call, retry after a fixed time.
type refusing time.Duration

func (l refusing) Allow(context.Context, string) (ratelimit.Decision, error) {
	return ratelimit.Decision{RetryAfter: time.Duration(l)}, nil
}

func (l refusing) AllowN(ctx context.Context, key string, _ int) (ratelimit.Decision, error) {
	return l.Allow(ctx, key)
}

// frozenLimiter is a Memory limiter whose clock stands still.
func frozenLimiter(limit int, window time.Duration) *ratelimit.Memory {
	l := ratelimit.NewMemory(limit, window)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l.Now = func() time.Time { return at }
	return l
}

// failing is a Limiter that cannot decide (Redis down).
type failing struct{}

func (failing) Allow(context.Context, string) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("redis: connection refused")
}

func (f failing) AllowN(ctx context.Context, key string, _ int) (ratelimit.Decision, error) {
	return f.Allow(ctx, key)
}

// wantRateLimited checks a refusal: 429, Retry-After, and a JSON-RPC
// CodeLimitExceeded error naming what was limited.
func wantRateLimited(tb testing.TB, w *httptest.ResponseRecorder, retryAfter, what string) {
	tb.Helper()
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != retryAfter {
		tb.Fatalf("status %d Retry-After %q, want 429 %s: %s", w.Code, w.Header().Get("Retry-After"), retryAfter, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		tb.Fatalf("Content-Type %q", ct)
	}
	body := w.Body.String()
	if !strings.HasPrefix(body, "[") {
		body = "[" + body + "]"
	}
	for _, r := range MustReplies(tb, body) {
		wantCode(tb, r, jsonrpc.CodeLimitExceeded)
		if want := "Rate limit exceeded: " + what + "; retry in " + retryAfter + " s"; r.Error.Message != want {
			tb.Fatalf("message %q, want %q", r.Error.Message, want)
		}
	}
}

func TestProxy_RateLimit(t *testing.T) {
	t.Run("IP", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.IPLimiter = ratelimit.NewMemory(1, time.Minute) }, node)
		h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`)
		r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`))
		w := httptest.NewRecorder()
		h.p.ServeHTTP(w, r)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
			t.Fatalf("status %d retry-after %q", w.Code, w.Header().Get("Retry-After"))
		}
		// The window is a minute, and it has only just started.
		if ra := w.Header().Get("Retry-After"); ra != "60" && ra != "59" {
			t.Fatalf("Retry-After %q", ra)
		}
		wantRateLimited(t, w, w.Header().Get("Retry-After"), "too many RPC requests from this address")
		wantHits(t, node, 1)
	})

	t.Run("Project", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.ProjectLimiter = frozenLimiter(5, time.Minute) }, node)
		post := func(id, body string) int {
			r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=ignored", strings.NewReader(body))
			r = r.WithContext(project.NewContext(r.Context(), &project.Project{ID: id}))
			code, _ := h.Do(t, r)
			return code
		}
		three := `[{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"},{"jsonrpc":"2.0","id":2,"method":"eth_gasPrice"},{"jsonrpc":"2.0","id":3,"method":"eth_gasPrice"}]`
		one := `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`
		// A batch costs one event per entry: 3 of 5, then 3 more do not fit, 1 does.
		if a, b, c, d := post("p1", three), post("p1", three), post("p1", one), post("p2", three); a != 200 || b != 429 || c != 200 || d != 200 {
			t.Fatalf("statuses %d %d %d %d", a, b, c, d)
		}
	})

	// Issue 15 finding 6: a 1,000-entry batch costs 1,000 against both
	// limits; the next request is refused, and a refused batch never
	// reaches the upstream.
	t.Run("BatchCostsItsEntries", func(t *testing.T) {
		for _, limit := range []string{"IP", "Project"} {
			t.Run(limit, func(t *testing.T) {
				node := MustNode(t, answering(echoMethod))
				h := MustProxy(t, func(c *Config) {
					if limit == "IP" {
						c.IPLimiter = frozenLimiter(1000, time.Minute)
					} else {
						c.ProjectLimiter = frozenLimiter(1000, time.Minute)
					}
				}, node)
				methods := make([]string, 1000)
				for i := range methods {
					methods[i] = "eth_gasPrice"
				}
				if code, body := h.Post(t, batchOf(methods)); code != http.StatusOK {
					t.Fatalf("1000-entry batch: %d %s", code, body)
				}
				hits := node.Hits()
				w := httptest.NewRecorder()
				h.p.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=p1", strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]`)))
				what := "too many RPC requests from this address"
				if limit == "Project" {
					what = "too many RPC requests for this project"
				}
				wantRateLimited(t, w, "1", what) // 60 ms to earn one event, rounded up to 1 s
				if len(MustReplies(t, w.Body.String())) != 2 {
					t.Fatalf("answers %s", w.Body)
				}
				wantHits(t, node, hits)
			})
		}
	})

	// A refused request is answered in JSON-RPC, so that viem and ethers
	// read the error: the request's id, or one error per id of a batch.
	t.Run("SingleAnswersItsID", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.ProjectLimiter = refusing(2500 * time.Millisecond) }, node)
		w := httptest.NewRecorder()
		h.p.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=p1", strings.NewReader(`{"jsonrpc":"2.0","id":"req-7","method":"eth_gasPrice"}`)))
		wantRateLimited(t, w, "3", "too many RPC requests for this project")
		want := `{"jsonrpc":"2.0","id":"req-7","error":{"code":-32005,"message":"Rate limit exceeded: too many RPC requests for this project; retry in 3 s","data":{"retryAfter":3}}}`
		if got := w.Body.String(); got != want {
			t.Fatalf("body\n got %s\nwant %s", got, want)
		}
		wantHits(t, node, 0)
	})

	t.Run("BatchAnswersEveryID", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.IPLimiter = refusing(0) }, node)
		big := "123456789012345678901234567890"
		w := httptest.NewRecorder()
		h.p.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=p1", strings.NewReader(`[
			{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"},
			{"jsonrpc":"2.0","method":"eth_syncing"},
			{"jsonrpc":"2.0","id":"b","method":"eth_blockNumber"},
			{"jsonrpc":"2.0","id":`+big+`,"method":"eth_chainId"}
		]`)))
		wantRateLimited(t, w, "1", "too many RPC requests from this address") // at least 1 s
		rs := MustReplies(t, w.Body.String())
		if len(rs) != 3 || string(rs[0].ID) != "1" || string(rs[1].ID) != `"b"` || string(rs[2].ID) != big {
			t.Fatalf("replies %s", w.Body)
		}
		wantHits(t, node, 0)
	})

	t.Run("UnreadableBodyAnswersNull", func(t *testing.T) {
		h := MustProxy(t, func(c *Config) { c.ProjectLimiter = refusing(time.Second) }, MustNode(t, answering(echoMethod)))
		w := httptest.NewRecorder()
		h.p.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=p1", strings.NewReader(`{"jsonrpc":`)))
		wantRateLimited(t, w, "1", "too many RPC requests for this project")
		if r := MustReply(t, w.Body.String()); string(r.ID) != "null" {
			t.Fatalf("id %s", r.ID)
		}
	})

	// By default an IPv6 client is counted by its /64 (issue 15 finding 5).
	t.Run("IPv6ByPrefix", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.IPLimiter = frozenLimiter(1, time.Minute) }, node)
		post := func(remote string) int {
			r := httptest.NewRequest(http.MethodPost, "/v1?chainId=eip155:1&projectId=p1", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`))
			r.RemoteAddr = remote
			code, _ := h.Do(t, r)
			return code
		}
		if a, b, c := post("[2001:db8:7:7::1]:1"), post("[2001:db8:7:7:ffff::2]:2"), post("[2001:db8:7:8::1]:3"); a != 200 || b != 429 || c != 200 {
			t.Fatalf("statuses %d %d %d, want 200 429 200", a, b, c)
		}
	})

	t.Run("LimiterDownFailsOpen", func(t *testing.T) {
		node := MustNode(t, answering(echoMethod))
		h := MustProxy(t, func(c *Config) { c.IPLimiter, c.ProjectLimiter = failing{}, failing{} }, node)
		code, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`)
		if code != http.StatusOK {
			t.Fatalf("status %d %s", code, body)
		}
		wantHits(t, node, 1)
	})
}
