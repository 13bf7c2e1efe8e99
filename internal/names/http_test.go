package names

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/store/storetest"
)

// sessionAccount stands in for the auth sessions of internal/auth (the app
// tests use the real ones): the bearer token is the account id.
func sessionAccount(r *http.Request) (string, error) {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), nil
}

func TestHandler(t *testing.T) {
	svc, clock := MustService(t, storetest.MustOpenSQLite(t), nil)
	h := NewHandler(svc, HandlerConfig{Account: sessionAccount})
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/profile/account", h.Register)
	mux.HandleFunc("GET /v1/profile/account/{name}", h.Lookup)
	mux.HandleFunc("GET /v1/profile/reverse/{address}", h.Reverse)
	mux.HandleFunc("GET /v1/profile/suggestions/{name}", h.Suggestions)
	do := func(method, path string, body any) (int, string) {
		var b bytes.Buffer
		if body != nil {
			json.NewEncoder(&b).Encode(body)
		}
		r := httptest.NewRequest(method, path, &b)
		r.Header.Set("Content-Type", "application/json")
		if reg, ok := body.(Registration); ok {
			r.Header.Set("Authorization", "Bearer user-"+strings.ToLower(reg.Address))
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	alice := newSigner(t)
	addr := alice.addr.Hex()

	t.Run("Register", func(t *testing.T) {
		code, body := do("POST", "/v1/profile/account", registration(t, alice, alice.addr, "alice.latch.test", nil, clock.t))
		if code != 200 || !strings.Contains(body, `"name":"alice.latch.test"`) || !strings.Contains(body, `"60":{"address":"`+addr) {
			t.Fatalf("%d %s", code, body)
		}
	})
	t.Run("RegisterErrors", func(t *testing.T) {
		for _, tt := range []struct {
			body any
			code int
			text string
		}{
			{registration(t, alice, alice.addr, "abc", nil, clock.t), 400, "at least 4"},
			{registration(t, newSigner(t), alice.addr, "alicia", nil, clock.t), 401, "not signed by"},
			{registration(t, newSigner(t), newSigner(t).addr, "zelda", nil, clock.t), 401, "not signed by"},
			{"nope", 400, "not valid JSON"},
			// Without a session (the page alone, or an injected wallet): spec §5's message.
			{struct{ Registration }{registration(t, alice, alice.addr, "alicia", nil, clock.t)}, 401, MsgAddressNotFound},
		} {
			code, body := do("POST", "/v1/profile/account", tt.body)
			if code != tt.code || !strings.Contains(body, tt.text) || !strings.Contains(body, `"status":"FAILED"`) {
				t.Errorf("%d %s; want %d %q", code, body, tt.code, tt.text)
			}
		}
		bob := newSigner(t)
		code, body := do("POST", "/v1/profile/account", registration(t, bob, bob.addr, "alice", nil, clock.t))
		if code != 409 || !strings.Contains(body, "is taken") {
			t.Errorf("taken: %d %s", code, body)
		}
	})
	t.Run("Lookup", func(t *testing.T) {
		if code, body := do("GET", "/v1/profile/account/alice.latch.test?apiVersion=2", nil); code != 200 || !strings.Contains(body, addr) {
			t.Fatalf("%d %s", code, body)
		}
		if code, body := do("GET", "/v1/profile/account/nobody.latch.test?apiVersion=2", nil); code != 200 || strings.TrimSpace(body) != "[]" {
			t.Fatalf("apiVersion=2 not found: %d %s", code, body)
		}
		if code, _ := do("GET", "/v1/profile/account/nobody.latch.test", nil); code != 404 {
			t.Fatalf("not found: %d", code)
		}
		if code, _ := do("GET", "/v1/profile/account/a_b.latch.test", nil); code != 400 {
			t.Fatalf("bad name: %d", code)
		}
	})
	t.Run("Reverse", func(t *testing.T) {
		if code, body := do("GET", "/v1/profile/reverse/"+addr+"?sender="+addr+"&apiVersion=2", nil); code != 200 || !strings.HasPrefix(body, `[{"name":"alice.latch.test"`) {
			t.Fatalf("%d %s", code, body)
		}
		other := newSigner(t).addr.Hex()
		if code, body := do("GET", "/v1/profile/reverse/"+other+"?apiVersion=2", nil); code != 200 || strings.TrimSpace(body) != "[]" {
			t.Fatalf("%d %s", code, body)
		}
		if code, _ := do("GET", "/v1/profile/reverse/"+other, nil); code != 404 {
			t.Fatalf("no name: %d", code)
		}
		if code, _ := do("GET", "/v1/profile/reverse/0x12", nil); code != 400 {
			t.Fatalf("bad address: %d", code)
		}
	})
	t.Run("Suggestions", func(t *testing.T) {
		code, body := do("GET", "/v1/profile/suggestions/alice?zone=latch.test", nil)
		if code != 200 || !strings.HasPrefix(body, `{"suggestions":[{"name":"alice.latch.test","registered":true},{"name":"alice1.latch.test","registered":false}`) {
			t.Fatalf("%d %s", code, body)
		}
		if code, body := do("GET", "/v1/profile/suggestions/alice?zone=reown.id", nil); code != 400 || !strings.Contains(body, "registers names in latch.test") {
			t.Fatalf("other zone: %d %s", code, body)
		}
	})
}

func TestHandler_RegisterRateLimited(t *testing.T) {
	svc, clock := MustService(t, storetest.MustOpenSQLite(t), nil)
	left := 1
	h := NewHandler(svc, HandlerConfig{Account: sessionAccount, Limit: func(*http.Request) (time.Duration, bool) {
		left--
		return 3 * time.Second, left >= 0
	}})
	for i, want := range []int{200, 429} {
		s := newSigner(t)
		var b bytes.Buffer
		json.NewEncoder(&b).Encode(registration(t, s, s.addr, fmt.Sprintf("user%d", i), nil, clock.t))
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/v1/profile/account", &b)
		r.Header.Set("Authorization", "Bearer user-"+s.addr.Hex())
		h.Register(w, r)
		if w.Code != want {
			t.Fatalf("registration %d: %d %s, want %d", i, w.Code, w.Body, want)
		}
		if want == 429 && (w.Header().Get("Retry-After") != "3" || !strings.Contains(w.Body.String(), "name registrations")) {
			t.Fatalf("429 without Retry-After 3: %v %s", w.Header(), w.Body)
		}
	}
}
