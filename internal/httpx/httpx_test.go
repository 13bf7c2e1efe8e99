package httpx

import (
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
)

func TestDecodeJSON(t *testing.T) {
	type body struct {
		A int `json:"a"`
	}
	for name, tc := range map[string]struct {
		ct, body string
		code     string
	}{
		"OK":          {"application/json", `{"a":1}`, ""},
		"TextPlain":   {"text/plain;charset=UTF-8", `{"a":1}`, ""},
		"NoType":      {"", `{"a":1}`, ""},
		"WrongType":   {"application/xml", `{"a":1}`, apperr.Unsupported},
		"BadType":     {"a/b/c;;", `{"a":1}`, apperr.Unsupported},
		"Empty":       {"application/json", ``, apperr.Invalid},
		"Syntax":      {"application/json", `{"a":`, apperr.Invalid},
		"WrongField":  {"application/json", `{"a":"x"}`, apperr.Invalid},
		"Trailing":    {"application/json", `{"a":1} {}`, apperr.Invalid},
		"TooLarge":    {"application/json", `{"a":1,"pad":"` + strings.Repeat("x", 200) + `"}`, apperr.TooLarge},
		"TooLargeEnd": {"application/json", `{"a":1}` + strings.Repeat(" ", 200), apperr.TooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
			if tc.ct != "" {
				r.Header.Set("Content-Type", tc.ct)
			}
			var v body
			err := DecodeJSON(httptest.NewRecorder(), r, 100, &v)
			if tc.code == "" {
				if err != nil || v.A != 1 {
					t.Fatalf("err %v, v %+v", err, v)
				}
				return
			}
			if apperr.Code(err) != tc.code {
				t.Fatalf("err = %v, want code %s", err, tc.code)
			}
		})
	}
}

func TestError(t *testing.T) {
	w := httptest.NewRecorder()
	Error(w, httptest.NewRequest("GET", "/", nil), apperr.Fieldf(apperr.Invalid, "entries", "bad"))
	var b ErrorBody
	json.Unmarshal(w.Body.Bytes(), &b)
	if w.Code != 400 || b.Status != "FAILED" || b.Reasons[0].Field != "entries" || b.Reasons[0].Description != "bad" {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	// Internal errors never leak their text.
	w = httptest.NewRecorder()
	Error(w, httptest.NewRequest("GET", "/", nil), net.ErrClosed)
	if w.Code != 500 || strings.Contains(w.Body.String(), "closed") {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	RateLimited(w, httptest.NewRequest("GET", "/", nil), 1500_000_000, "x")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "2" {
		t.Fatalf("%d %v", w.Code, w.Header())
	}
}

func TestClientIP(t *testing.T) {
	_, proxies, _ := net.ParseCIDR("10.0.0.0/8")
	trusted := func(ip net.IP) bool { return proxies.Contains(ip) }
	for name, tc := range map[string]struct {
		remote, xff string
		trust       func(net.IP) bool
		want        string
	}{
		"Direct":         {"203.0.113.5:1234", "", trusted, "203.0.113.5"},
		"SpoofIgnored":   {"203.0.113.5:1234", "1.2.3.4", trusted, "203.0.113.5"},
		"NoTrustConfig":  {"10.0.0.1:1234", "1.2.3.4", nil, "10.0.0.1"},
		"ViaProxy":       {"10.0.0.1:1234", "1.2.3.4", trusted, "1.2.3.4"},
		"ChainRightmost": {"10.0.0.1:1234", "6.6.6.6, 1.2.3.4, 10.0.0.2", trusted, "1.2.3.4"},
		"GarbageInChain": {"10.0.0.1:1234", "nonsense, 10.0.0.2", trusted, "10.0.0.2"},
	} {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			if tc.xff != "" {
				r.Header.Set("X-Forwarded-For", tc.xff)
			}
			if got := ClientIP(r, tc.trust); got != tc.want {
				t.Fatalf("ClientIP = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestBaseURL(t *testing.T) {
	_, proxies, _ := net.ParseCIDR("10.0.0.0/8")
	trusted := func(ip net.IP) bool { return proxies.Contains(ip) }
	for name, tc := range map[string]struct {
		remote, proto string
		tls           bool
		trusted       func(net.IP) bool
		want          string
	}{
		"Plain":              {remote: "192.0.2.1:1234", want: "http://api.example"},
		"TLS":                {remote: "192.0.2.1:1234", tls: true, want: "https://api.example"},
		"TrustedProxyHTTPS":  {remote: "10.1.2.3:1234", proto: "HTTPS", trusted: trusted, want: "https://api.example"},
		"UntrustedPeerHTTPS": {remote: "192.0.2.1:1234", proto: "https", trusted: trusted, want: "http://api.example"},
		"NoTrustedProxies":   {remote: "10.1.2.3:1234", proto: "https", want: "http://api.example"},
		"TrustedProxyHTTP":   {remote: "10.1.2.3:1234", proto: "http", trusted: trusted, want: "http://api.example"},
	} {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "http://api.example/v1/x", nil)
			r.RemoteAddr = tc.remote
			if tc.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			if !tc.tls {
				r.TLS = nil
			} else if r.TLS == nil {
				r.TLS = &tls.ConnectionState{}
			}
			if got := BaseURL(r, tc.trusted); got != tc.want {
				t.Fatalf("BaseURL = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRateKey(t *testing.T) {
	for _, tt := range []struct {
		ip     string
		prefix int
		want   string
	}{
		{"203.0.113.7", 64, "203.0.113.7"},
		{"::ffff:203.0.113.7", 64, "203.0.113.7"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", 64, "2001:db8:1:3::/64"},
		{"2001:db8:1:2::1", 48, "2001:db8:1::/48"},
		{"2001:db8:1:2::1", 56, "2001:db8:1::/56"},
		{"2001:db8:1:2::1", 128, "2001:db8:1:2::1"},
		{"fe80::1%eth0", 64, "fe80::/64"},
		{"::1", 64, "::/64"},
		{"not-an-ip", 64, "not-an-ip"},
		{"", 64, ""},
	} {
		if got := RateKey(tt.ip, tt.prefix); got != tt.want {
			t.Errorf("RateKey(%q, %d) = %q, want %q", tt.ip, tt.prefix, got, tt.want)
		}
	}
	// Two addresses of one /64 share a key; ClientIP's answers feed it.
	a := httptest.NewRequest("GET", "/", nil)
	a.RemoteAddr = "[2001:db8:1:2::a]:1000"
	b := httptest.NewRequest("GET", "/", nil)
	b.RemoteAddr = "[2001:db8:1:2:ffff::b]:2000"
	if ka, kb := RateKey(ClientIP(a, nil), 64), RateKey(ClientIP(b, nil), 64); ka != kb {
		t.Errorf("one /64, two keys: %q %q", ka, kb)
	}
}
