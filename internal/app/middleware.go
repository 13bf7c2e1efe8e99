package app

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/rpcproxy"
)

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, hijack).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe gives each request an id, recovers panics, logs one line per
// request and records request metrics by route pattern. Query strings are
// not logged: they may carry tokens.
func observe(next http.Handler, log *slog.Logger, requests *metrics.CounterVec, latency *metrics.HistogramVec) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			var b [8]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		sw := &statusWriter{ResponseWriter: w}
		// The breaker scope: a request waits on a failing dependency once.
		r = r.WithContext(breaker.WithScope(httpx.WithRequestID(r.Context(), id)))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic", "request_id", id, "panic", v, "path", r.URL.Path)
				if sw.status == 0 {
					httpx.Error(sw, r, apperr.Errorf(apperr.Internal, "Internal server error"))
				}
			}
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			d := time.Since(start)
			requests.Inc(route, strconv.Itoa(status))
			latency.Observe(d.Seconds(), route)
			log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("request_id", id), slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.String("route", route), slog.Int("status", status), slog.Int("bytes", sw.bytes),
				slog.Duration("duration", d))
		}()
		next.ServeHTTP(sw, r)
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// limitIP caps requests per client IP across the API. Health and metrics
// endpoints are exempt so probes never get throttled. A refused request for
// a JSON-RPC route (isJSONRPC) gets JSON-RPC errors, one per request id, as
// its client can read only those; others get the REST error body.
func limitIP(next http.Handler, limiter ratelimit.Limiter, clientIP func(*http.Request) string, isJSONRPC func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz", "/readyz", "/metrics":
			next.ServeHTTP(w, r)
			return
		}
		d, err := limiter.Allow(r.Context(), clientIP(r))
		if err != nil {
			// A limiter failure must not take the API down; log and let the request through.
			slog.WarnContext(r.Context(), "rate limiter", "err", err)
		} else if !d.Allowed {
			if isJSONRPC(r) {
				// Read only to echo the ids; an unreadable body is answered with id null.
				body, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, rpcproxy.DefaultMaxBody))
				jsonrpc.WriteRateLimited(w, body, d.RetryAfter, "request rate per IP")
				return
			}
			httpx.RateLimited(w, r, d.RetryAfter, "request rate per IP")
			return
		}
		next.ServeHTTP(w, r)
	})
}
