package app

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/store/storetest"
)

func TestCLI_Healthcheck(t *testing.T) {
	// A real latchd serve (no dev chains) on :0.
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), RelayURL: "wss://relay.example.com", ShutdownTimeout: 5 * time.Second}
	m := NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(m.APIURL(), "http://"))

	t.Run("OK", func(t *testing.T) {
		code, out, errOut := run(t, "healthcheck", "--url", m.APIURL()+"/healthz")
		if code != 0 || !strings.Contains(out, "healthy: GET "+m.APIURL()+"/healthz answered 200 OK") || !strings.Contains(out, `"status":"ok"`) {
			t.Fatalf("exit %d, %q %q", code, out, errOut)
		}
	})
	t.Run("ReadyURL", func(t *testing.T) {
		code, out, errOut := run(t, "healthcheck", "--url", m.APIURL()+"/readyz")
		if code != 0 || !strings.Contains(out, `"status":"ready"`) {
			t.Fatalf("exit %d, %q %q", code, out, errOut)
		}
	})
	t.Run("DefaultURLFromAddr", func(t *testing.T) {
		// latchd listening on every interface is asked on loopback.
		code, out, errOut := run(t, "healthcheck", "--addr", "0.0.0.0:"+port)
		if code != 0 || !strings.Contains(out, "GET http://127.0.0.1:"+port+"/healthz answered 200") {
			t.Fatalf("exit %d, %q %q", code, out, errOut)
		}
		t.Setenv("LATCH_ADDR", "127.0.0.1:"+port)
		if code, out, errOut := run(t, "healthcheck"); code != 0 || !strings.Contains(out, "127.0.0.1:"+port) {
			t.Fatalf("LATCH_ADDR: exit %d, %q %q", code, out, errOut)
		}
	})
	t.Run("ErrNotOK", func(t *testing.T) {
		code, _, errOut := run(t, "healthcheck", "--url", m.APIURL()+"/nothing-here")
		if code != 1 || !strings.Contains(errOut, "unhealthy: GET "+m.APIURL()+"/nothing-here answered 404 Not Found") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	t.Run("ErrNotListening", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		if code, _, errOut := run(t, "healthcheck", "--addr", addr); code != 1 || !strings.Contains(errOut, "unhealthy:") || !strings.Contains(errOut, "refused") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	t.Run("ErrTimeout", func(t *testing.T) {
		release := make(chan struct{})
		hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		t.Cleanup(hung.Close)
		t.Cleanup(func() { close(release) })
		start := time.Now()
		code, _, errOut := run(t, "healthcheck", "--url", hung.URL+"/healthz", "--timeout", "200ms")
		if code != 1 || !strings.Contains(errOut, "deadline exceeded") || time.Since(start) > 3*time.Second {
			t.Fatalf("exit %d after %v, %q", code, time.Since(start), errOut)
		}
	})
	t.Run("ErrRedirect", func(t *testing.T) {
		redirect := httptest.NewServer(http.RedirectHandler(m.APIURL()+"/healthz", http.StatusFound))
		t.Cleanup(redirect.Close)
		if code, _, errOut := run(t, "healthcheck", "--url", redirect.URL); code != 1 || !strings.Contains(errOut, "302 Found") {
			t.Fatalf("exit %d, %q", code, errOut)
		}
	})
	for name, args := range map[string][]string{
		"ErrBadURL":      {"--url", "localhost:8080/healthz"},
		"ErrBadScheme":   {"--url", "ftp://127.0.0.1/healthz"},
		"ErrBadTimeout":  {"--timeout", "0s"},
		"ErrExtraArg":    {"now"},
		"ErrUnknownFlag": {"--verbose"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, errOut := run(t, append([]string{"healthcheck"}, args...)...); code == 0 || errOut == "" {
				t.Fatalf("exit %d, %q", code, errOut)
			}
		})
	}
}

func TestLoopbackAddr(t *testing.T) {
	for in, want := range map[string]string{
		"0.0.0.0:8080":   "127.0.0.1:8080",
		":8080":          "127.0.0.1:8080",
		"[::]:8080":      "127.0.0.1:8080",
		"127.0.0.1:9000": "127.0.0.1:9000",
		"10.1.2.3:8080":  "10.1.2.3:8080",
		"[::1]:8080":     "[::1]:8080",
		"latchd:8080":    "latchd:8080",
	} {
		if got := loopbackAddr(in); got != want {
			t.Errorf("loopbackAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
