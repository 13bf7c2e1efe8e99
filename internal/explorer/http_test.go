package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/data/icons"
	"github.com/latchkit/latch/internal/httpx"
)

// mustServer serves the fixture registry through Register with a middleware
// that counts the requests it sees.
func mustServer(t *testing.T) (*Service, *httptest.Server, *atomic.Int64) {
	t.Helper()
	s := mustService(t, mustJSON(t, fixture()))
	var seen atomic.Int64
	mw := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen.Add(1)
			next.ServeHTTP(w, r)
		})
	}
	names := func(kind, id string) (string, bool) { return "Ethereum", kind == KindAsset && id == "eip155-1" }
	mux := http.NewServeMux()
	mount(mux, NewHandler(s, names), mw)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return s, srv, &seen
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestHandler_GetWallets(t *testing.T) {
	_, srv, seen := mustServer(t)

	t.Run("OK", func(t *testing.T) {
		resp, body := get(t, srv.URL+"/getWallets?projectId=p&st=appkit&sv=x&entries=3&page=1")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if ct, cc := resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"); ct != "application/json" || cc != "public, max-age=300" {
			t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
		}
		var got struct {
			Count int              `json:"count"`
			Data  []map[string]any `json:"data"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		if got.Count != 10 || len(got.Data) != 3 {
			t.Fatalf("count %d, %d entries", got.Count, len(got.Data))
		}
		mm := got.Data[0]
		wantKeys := []string{"app_store", "badge_type", "chains", "chrome_store", "desktop_link", "display_index", "homepage", "id",
			"image_id", "injected", "link_mode", "mobile_link", "name", "order", "play_store", "rdns", "supports_wc", "supports_wcpay", "webapp_link"}
		var keys []string
		for k := range mm {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("keys = %v\nwant %v", keys, wantKeys)
		}
		checks := map[string]any{
			"id": idOf("metamask"), "image_id": idOf("metamask"), "name": "MetaMask", "badge_type": "certified",
			"display_index": float64(2), "order": float64(1), "link_mode": nil, "webapp_link": nil,
			"supports_wc": true, "supports_wcpay": false, "rdns": "io.metamask",
		}
		for k, want := range checks {
			if mm[k] != want {
				t.Errorf("%s = %#v, want %#v", k, mm[k], want)
			}
		}
		if inj, _ := mm["injected"].([]any); len(inj) != 1 {
			t.Errorf("injected = %v", mm["injected"])
		}
	})

	t.Run("NullsAndDescription", func(t *testing.T) {
		_, body := get(t, srv.URL+"/getWallets?include="+idOf("zeta"))
		var got struct {
			Data []map[string]any `json:"data"`
		}
		json.Unmarshal(body, &got)
		if len(got.Data) != 1 {
			t.Fatalf("body %s", body)
		}
		z := got.Data[0]
		if z["order"] != nil || z["homepage"] != nil || z["injected"] != nil || z["description"] != "A wallet without a rank" || z["display_index"] != float64(0) {
			t.Errorf("zeta = %v", z)
		}
		if _, ok := z["order"]; !ok {
			t.Error("null order omitted")
		}
	})

	t.Run("Empty", func(t *testing.T) {
		_, body := get(t, srv.URL+"/getWallets?search=nothing")
		if string(body) != `{"count":0,"data":[]}` {
			t.Errorf("body = %s", body)
		}
	})

	t.Run("Invalid", func(t *testing.T) {
		for _, tt := range []struct{ query, field string }{
			{"page=0", "page"},
			{"entries=x", "entries"},
			{"chains=eip155", "chains"},
			{"badge_type=gold", "badge_type"},
			{"badge=gold", "badge"},
			{"platform=tv", "platform"},
			{"sort=x", "sort"},
			{"include_pay_only=no", "include_pay_only"},
		} {
			resp, body := get(t, srv.URL+"/getWallets?"+tt.query)
			var e httpx.ErrorBody
			json.Unmarshal(body, &e)
			if resp.StatusCode != http.StatusBadRequest || e.Status != "FAILED" || e.Code != "invalid" || len(e.Reasons) != 1 || e.Reasons[0].Field != tt.field {
				t.Errorf("%s: %d %s", tt.query, resp.StatusCode, body)
			}
		}
		_, body := get(t, srv.URL+"/getWallets?chains=eip155")
		if !strings.Contains(string(body), `"description":"Invalid CAIP-2 network id: eip155"`) {
			t.Errorf("chains message: %s", body)
		}
	})

	if seen.Load() == 0 {
		t.Error("middleware did not wrap /getWallets")
	}
}

func TestHandler_Image(t *testing.T) {
	s, srv, seen := mustServer(t)
	mm := idOf("metamask")
	w3 := idOf("wallet3") // in the registry, without an embedded icon

	t.Run("Monogram", func(t *testing.T) {
		resp, body := get(t, srv.URL+"/getWalletImage/"+w3+"?projectId=p")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
		h := resp.Header
		if h.Get("Content-Type") != "image/svg+xml" || h.Get("Cache-Control") != "public, max-age=86400" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("headers %v", h)
		}
		if etag := h.Get("ETag"); !strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, "W/") {
			t.Errorf("ETag %q is not strong", etag)
		}
		if parseSVG(t, body).Text != "W" {
			t.Errorf("body %s", body)
		}
	})

	t.Run("Icon", func(t *testing.T) {
		for _, tt := range []struct {
			path string
			svg  func() ([]byte, bool)
		}{
			{"/getWalletImage/" + mm, func() ([]byte, bool) { return icons.Wallet("metamask") }},
			{"/public/getAssetImage/eip155:8453", func() ([]byte, bool) { return icons.Network("eip155:8453") }},
			{"/public/getAssetImage/eip155%3A1", func() ([]byte, bool) { return icons.Network("eip155:1") }},
			{"/public/getTokenImage/USDT", func() ([]byte, bool) { return icons.Token("USDT") }},
		} {
			want, ok := tt.svg()
			if !ok {
				t.Fatalf("%s: data/icons has no icon", tt.path)
			}
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
				t.Errorf("%s: %d %.80s", tt.path, resp.StatusCode, body)
				continue
			}
			h := resp.Header
			// An embedded icon changes with a deploy and an operator's
			// logo may replace it: cached for a day, not as immutable.
			if h.Get("Content-Type") != "image/svg+xml" || h.Get("Cache-Control") != "public, max-age=86400" ||
				h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") ||
				!strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
				t.Errorf("%s: headers %v", tt.path, h)
			}
			if resp, _ := get(t, srv.URL+tt.path, "If-None-Match", h.Get("ETag")); resp.StatusCode != http.StatusNotModified {
				t.Errorf("%s: revalidation status %d", tt.path, resp.StatusCode)
			}
		}
	})

	t.Run("NotModified", func(t *testing.T) {
		resp, _ := get(t, srv.URL+"/getWalletImage/"+mm)
		etag := resp.Header.Get("ETag")
		for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
			resp, body := get(t, srv.URL+"/getWalletImage/"+mm, "If-None-Match", inm)
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
				t.Errorf("If-None-Match %s: status %d, %d bytes", inm, resp.StatusCode, len(body))
			}
		}
		if resp, _ := get(t, srv.URL+"/getWalletImage/"+mm, "If-None-Match", `"stale"`); resp.StatusCode != http.StatusOK {
			t.Errorf("stale ETag: status %d", resp.StatusCode)
		}
	})

	t.Run("Routes", func(t *testing.T) {
		for _, tt := range []struct{ path, text string }{
			{"/public/getAssetImage/eip155-1", "E"},
			{"/public/getCurrencyImage/USD", "US"},
			{"/public/getTokenImage/USDB", "US"},
			{"/public/getAssetImage/eip155:424242", "EI"},
		} {
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != http.StatusOK || parseSVG(t, body).Text != tt.text {
				t.Errorf("%s: %d %s", tt.path, resp.StatusCode, body)
			}
		}
	})

	t.Run("StoredImage", func(t *testing.T) {
		logo := pngBytes(t)
		if err := s.PutImage(context.Background(), KindToken, "USDC", "image/png", logo); err != nil {
			t.Fatal(err)
		}
		resp, body := get(t, srv.URL+"/public/getTokenImage/USDC")
		if resp.StatusCode != http.StatusOK || string(body) != string(logo) {
			t.Fatalf("status %d, %d bytes", resp.StatusCode, len(body))
		}
		if resp.Header.Get("Content-Type") != "image/png" || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("headers %v", resp.Header)
		}
		resp, _ = get(t, srv.URL+"/public/getTokenImage/USDC", "If-None-Match", resp.Header.Get("ETag"))
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("stored image revalidation: %d", resp.StatusCode)
		}
	})

	t.Run("BadID", func(t *testing.T) {
		for _, id := range []string{"a%20b", "a%2Fb", strings.Repeat("x", 129), "%3Cscript%3E"} {
			resp, body := get(t, srv.URL+"/getWalletImage/"+id)
			var e httpx.ErrorBody
			json.Unmarshal(body, &e)
			if resp.StatusCode != http.StatusBadRequest || len(e.Reasons) != 1 || e.Reasons[0].Field != "id" {
				t.Errorf("%s: %d %s", id, resp.StatusCode, body)
			}
		}
	})

	if seen.Load() == 0 {
		t.Error("middleware did not wrap the image routes")
	}
}

func TestEtagMatches(t *testing.T) {
	tests := []struct {
		header string
		want   bool
	}{
		{`"a"`, true}, {`W/"a"`, true}, {`"b", "a"`, true}, {`*`, true},
		{``, false}, {`"b"`, false}, {`a`, false}, {`"a`, false},
	}
	for _, tt := range tests {
		if got := etagMatches(tt.header, `"a"`); got != tt.want {
			t.Errorf("etagMatches(%q) = %v", tt.header, got)
		}
	}
}

// BenchmarkGetWallets measures a whole /getWallets request through the mux.
func BenchmarkGetWallets(b *testing.B) {
	s := mustService(b, data.Wallets)
	mux := http.NewServeMux()
	mount(mux, NewHandler(s, nil), nil)
	req := httptest.NewRequest(http.MethodGet, "/getWallets?projectId=p&st=appkit&sv=x&page=1&entries=40&search=wa&chains=eip155:1,eip155:137", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := &discardWriter{}
		mux.ServeHTTP(w, req)
		if w.code != http.StatusOK {
			b.Fatal(w.code)
		}
	}
}

// BenchmarkGetWalletsParallel runs /getWallets from 64 goroutines.
func BenchmarkGetWalletsParallel(b *testing.B) {
	s := mustService(b, data.Wallets)
	mux := http.NewServeMux()
	mount(mux, NewHandler(s, nil), nil)
	b.ReportAllocs()
	b.SetParallelism((64 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			req := httptest.NewRequest(http.MethodGet, "/getWallets?projectId=p&st=appkit&sv=x&entries=40&chains=eip155:1&search="+[]string{"wa", "meta", "", "tr"}[i%4], nil)
			mux.ServeHTTP(&discardWriter{}, req)
		}
	})
}

// discardWriter is a ResponseWriter that drops the body, so benchmarks measure
// the handler rather than a recorder's buffer.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}

func (w *discardWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return len(b), nil
}

func (w *discardWriter) WriteHeader(code int) { w.code = code }

// mount serves h's routes on mux as latchd's route table does, each wrapped
// by mw (nil: none).
func mount(mux *http.ServeMux, h *Handler, mw func(http.Handler) http.Handler) {
	if mw == nil {
		mw = func(next http.Handler) http.Handler { return next }
	}
	mux.Handle("GET /getWallets", mw(http.HandlerFunc(h.Wallets)))
	mux.Handle("GET /getWalletImage/{id}", mw(h.Image(KindWallet)))
	mux.Handle("GET /public/getAssetImage/{id}", mw(h.Image(KindAsset)))
	mux.Handle("GET /public/getCurrencyImage/{id}", mw(h.Image(KindCurrency)))
	mux.Handle("GET /public/getTokenImage/{id}", mw(h.Image(KindToken)))
}
