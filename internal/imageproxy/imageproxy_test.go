package imageproxy

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// pngBytes starts like a PNG; the proxy checks the declared type.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1}, 100)...)

// origin is an image host on loopback counting its requests.
type origin struct {
	*httptest.Server
	hits atomic.Int32
}

func newOrigin(t *testing.T, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

// testProxy may fetch from loopback over http, as httptest servers need.
func testProxy(cfg Config) *Proxy {
	cfg.allowLoopback, cfg.allowHTTP = true, true
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(cfg)
}

func get(p *Proxy, src string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	p.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v1/image?url="+url.QueryEscape(src), nil))
	return w
}

func wantStatus(t *testing.T, w *httptest.ResponseRecorder, status int, text string) {
	t.Helper()
	if w.Code != status || !strings.Contains(w.Body.String(), text) {
		t.Fatalf("%d %s, want %d with %q", w.Code, w.Body, status, text)
	}
}

func TestProxy_Serve(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngBytes)
		case "/a.svg":
			w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
			io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html></html>")
		case "/big":
			w.Header().Set("Content-Type", "image/png")
			w.Write(bytes.Repeat([]byte{1}, 2048))
		case "/big-chunked":
			w.Header().Set("Content-Type", "image/png")
			for range 4 {
				w.Write(bytes.Repeat([]byte{1}, 512))
				w.(http.Flusher).Flush()
			}
		case "/missing":
			http.NotFound(w, r)
		}
	})
	p := testProxy(Config{MaxBytes: 1024})

	t.Run("OK", func(t *testing.T) {
		w := get(p, o.URL+"/a.png")
		wantStatus(t, w, http.StatusOK, "PNG")
		h := w.Header()
		if h.Get("Content-Type") != "image/png" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != ContentSecurityPolicy || !strings.HasPrefix(h.Get("Cache-Control"), "public, max-age=") {
			t.Fatalf("headers %v", h)
		}
	})
	t.Run("SVGWithStrictCSP", func(t *testing.T) {
		w := get(p, o.URL+"/a.svg")
		wantStatus(t, w, http.StatusOK, "<svg")
		if w.Header().Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(w.Header().Get("Content-Security-Policy"), "default-src 'none'; style-src 'unsafe-inline'") || w.Header().Get("Content-Disposition") != "attachment" {
			t.Fatalf("headers %v", w.Header())
		}
	})
	t.Run("ErrType", func(t *testing.T) {
		wantStatus(t, get(p, o.URL+"/page"), http.StatusUnsupportedMediaType, "Not an image")
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		wantStatus(t, get(p, o.URL+"/big"), http.StatusRequestEntityTooLarge, "larger than 1024 bytes")
		// Without a Content-Length the body is cut at the limit.
		wantStatus(t, get(p, o.URL+"/big-chunked"), http.StatusRequestEntityTooLarge, "larger than 1024 bytes")
	})
	t.Run("ErrUpstreamStatus", func(t *testing.T) {
		wantStatus(t, get(p, o.URL+"/missing"), http.StatusServiceUnavailable, "could not be fetched")
	})
	t.Run("ErrURL", func(t *testing.T) {
		for _, src := range []string{"", "/relative.png", "ftp://x.example/a.png", "data:image/png;base64,AAAA", "ipfs://bafy/a.png", "https://user:pw@x.example/a.png", "https://x.example/" + strings.Repeat("a", maxURLBytes)} {
			if w := get(New(Config{}), src); w.Code != http.StatusBadRequest && w.Code != http.StatusUnsupportedMediaType {
				t.Errorf("%.40q: %d %s, want 400 or 415", src, w.Code, w.Body)
			}
		}
	})
}

func TestProxy_Timeout(t *testing.T) {
	release := make(chan struct{})
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select { // a body that never ends, until the test does
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	p := testProxy(Config{Timeout: 200 * time.Millisecond})
	start := time.Now()
	wantStatus(t, get(p, o.URL+"/slow.png"), http.StatusServiceUnavailable, "could not be fetched")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s with a 200ms timeout", d)
	}
}

func TestProxy_RefusesNonPublicAddresses(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	_, port, _ := net.SplitHostPort(o.Listener.Addr().String())
	port = ":" + port
	// The production proxy: loopback refused like any private address,
	// also when a name resolves to it.
	p := New(Config{allowHTTP: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, src := range []string{o.URL + "/a.png", "http://localhost" + port + "/a.png", "http://[::1]" + port + "/a.png"} {
		t.Run(src, func(t *testing.T) {
			wantStatus(t, get(p, src), http.StatusForbidden, "not a public address")
		})
	}
	if o.hits.Load() != 0 {
		t.Fatalf("the origin was reached %d times", o.hits.Load())
	}
	t.Run("RedirectToPrivate", func(t *testing.T) {
		// The test proxy reaches loopback, but a redirect to a private or
		// link-local address (a cloud metadata service) is refused at dial.
		for _, target := range []string{"http://169.254.169.254/latest/meta-data", "http://10.0.0.1/a.png", "http://[fd00::1]/a.png"} {
			r := newOrigin(t, func(w http.ResponseWriter, req *http.Request) { http.Redirect(w, req, target, http.StatusFound) })
			wantStatus(t, get(testProxy(Config{}), r.URL+"/a.png"), http.StatusForbidden, "not a public address")
		}
	})
	for addr, public := range map[string]bool{
		"93.184.215.14": true, "2606:2800:21f:cb07:6820:80da:af6b:8b2c": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"100.64.0.1": false, "0.0.0.0": false, "::1": false, "fd12::1": false, "fe80::1": false, "::ffff:10.0.0.1": false,
		"64:ff9b::a00:1": false, "224.0.0.1": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != public {
			t.Errorf("Public(%s) = %v, want %v", addr, got, public)
		}
	}
}

func TestProxy_Cache(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := testProxy(Config{CacheTTL: time.Minute, Now: func() time.Time { return now }})
	for range 3 {
		wantStatus(t, get(p, o.URL+"/a.png"), http.StatusOK, "PNG")
	}
	if n := o.hits.Load(); n != 1 {
		t.Fatalf("origin hit %d times, want 1 (cache hits)", n)
	}
	now = now.Add(time.Minute)
	wantStatus(t, get(p, o.URL+"/a.png"), http.StatusOK, "PNG")
	if n := o.hits.Load(); n != 2 {
		t.Fatalf("after the TTL origin hit %d times, want 2", n)
	}

	t.Run("Bounded", func(t *testing.T) {
		c := newLRU(3 * (int64(len(pngBytes)) + 200))
		for i := range 10 {
			c.add(string(rune('a'+i)), &image{body: pngBytes, expires: now.Add(time.Hour)})
		}
		if c.len() != 3 || c.bytes > c.maxBytes {
			t.Fatalf("%d entries, %d bytes of %d", c.len(), c.bytes, c.maxBytes)
		}
		if _, ok := c.get("j", now); !ok {
			t.Fatal("the newest entry was evicted")
		}
		if _, ok := c.get("a", now); ok {
			t.Fatal("the oldest entry was kept")
		}
	})
}

func TestProxy_IPFS(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ipfs/bafyexample/avatar.png" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	if New(Config{}).Proxiable("ipfs://bafyexample/avatar.png") {
		t.Fatal("ipfs:// proxiable without a gateway")
	}
	p := testProxy(Config{IPFSGateway: o.URL + "/ipfs/"})
	wantStatus(t, get(p, "ipfs://bafyexample/avatar.png"), http.StatusOK, "PNG")
	wantStatus(t, get(p, "ipfs://ipfs/bafyexample/avatar.png"), http.StatusOK, "PNG")
	for s, ok := range map[string]bool{"https://ipfs.io/ipfs": true, "http://ipfs.io/ipfs": false, "ipfs.io": false, "https://ipfs.io/ipfs?x=1": false} {
		if err := ValidateGateway(s); (err == nil) != ok {
			t.Errorf("ValidateGateway(%q) = %v", s, err)
		}
	}
}
