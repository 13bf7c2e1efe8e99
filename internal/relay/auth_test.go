package relay_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/relay"
)

// TestServer_Auth: a refused client gets HTTP 401 without useOnCloseEvent
// and close 3000 with the reason with it.
func TestServer_Auth(t *testing.T) {
	srv := newTestServer(t)
	good := newIdentity(t)
	token := func(key ed25519.PrivateKey, aud string, iat time.Time) string {
		return relay.SignToken(key, "sub", aud, iat, 24*time.Hour)
	}
	forged := func() string {
		// A token claiming good's did:key but signed by another key.
		other := newIdentity(t)
		tok := token(other.key, srv.url, time.Now())
		parts := strings.Split(tok, ".")
		payload, _ := json.Marshal(map[string]any{"iss": good.id, "sub": "s", "aud": srv.url, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()})
		parts[1] = base64.RawURLEncoding.EncodeToString(payload)
		return strings.Join(parts, ".")
	}
	cases := []struct {
		name, token, project, origin, reason string
	}{
		{"OK", token(good.key, srv.url, time.Now()), testProject, "", ""},
		{"OKWithTrailingSlashAud", token(good.key, srv.url+"/", time.Now()), testProject, "", ""},
		{"OKAllowedOrigin", token(good.key, srv.url, time.Now()), testProject, "https://dapp.example", ""},
		{"ErrMissingToken", "", testProject, "", "Unauthorized: missing auth token"},
		{"ErrForgedSignature", forged(), testProject, "", "Unauthorized: invalid auth token signature"},
		{"ErrWrongAudience", token(good.key, "wss://relay.walletconnect.org", time.Now()), testProject, "", "Unauthorized: auth token audience does not match this relay"},
		{"ErrWrongAudiencePort", token(good.key, "ws://127.0.0.1:1", time.Now()), testProject, "", "Unauthorized: auth token audience"},
		{"ErrExpired", token(good.key, srv.url, time.Now().Add(-25*time.Hour)), testProject, "", "Unauthorized: auth token expired"},
		{"ErrGarbageToken", "not.a.jwt", testProject, "", "Unauthorized: malformed auth token"},
		{"ErrNotDIDKey", relay.SignToken(good.key, "s", srv.url, time.Now(), time.Hour) + "x", testProject, "", "Unauthorized:"},
		{"ErrInvalidProject", token(good.key, srv.url, time.Now()), "ffffffffffffffffffffffffffffffff", "", "Unauthorized: invalid project id"},
		{"ErrOrigin", token(good.key, srv.url, time.Now()), testProject, "https://evil.example", "Unauthorized: origin not allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, onClose := range []bool{true, false} {
				q := url.Values{"projectId": {tc.project}, "ua": {"wc-2/js-2.21.8/test"}}
				if tc.token != "" {
					q.Set("auth", tc.token)
				}
				if onClose {
					q.Set("useOnCloseEvent", "true")
				}
				h := http.Header{}
				if tc.origin != "" {
					h.Set("Origin", tc.origin)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				ws, resp, err := websocket.Dial(ctx, srv.url+"/?"+q.Encode(), &websocket.DialOptions{HTTPHeader: h})
				cancel()
				if tc.reason == "" {
					if err != nil {
						t.Fatalf("dial: %v", err)
					}
					c := &client{t: t, ws: ws, answers: map[string]chan frame{}, delivered: make(chan frame, 8), closed: make(chan struct{})}
					go c.read()
					c.ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
					ws.Close(websocket.StatusNormalClosure, "")
					continue
				}
				if !onClose {
					if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
						t.Fatalf("without useOnCloseEvent: err %v, resp %v; want HTTP 401", err, resp)
					}
					continue
				}
				if err != nil {
					t.Fatalf("with useOnCloseEvent the upgrade must succeed: %v", err)
				}
				_, _, err = ws.Read(context.Background())
				var ce websocket.CloseError
				if !asCloseError(err, &ce) || ce.Code != 3000 || !strings.Contains(ce.Reason, tc.reason) {
					t.Fatalf("close %v, want 3000 with %q", err, tc.reason)
				}
			}
		})
	}
}

func asCloseError(err error, ce *websocket.CloseError) bool {
	return errors.As(err, ce)
}

func TestVerifyToken(t *testing.T) {
	id := newIdentity(t)
	now := time.Now()
	aud := func(s string) bool { return s == "wss://relay.example" }
	tok := relay.SignToken(id.key, "sub", "wss://relay.example", now, time.Hour)
	c, err := relay.VerifyToken(tok, now, aud)
	if err != nil {
		t.Fatal(err)
	}
	if c.ClientID != id.id || !strings.HasPrefix(c.ClientID, "did:key:z6Mk") {
		t.Fatalf("client id %q, want %q (did:key:z6Mk…)", c.ClientID, id.id)
	}
	if _, err := relay.VerifyToken(tok, now.Add(2*time.Hour), aud); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired token: %v", err)
	}
	// A token made by @walletconnect/relay-auth 1.1.0 (seed = 32 zero bytes
	// … 31, aud ws://localhost:8080, iat 1700000000, ttl 86400).
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	key := ed25519.NewKeyFromSeed(seed)
	js := relay.SignToken(key, "c2Vzc2lvbg", "ws://localhost:8080", time.Unix(1700000000, 0), 24*time.Hour)
	if _, err := relay.VerifyToken(js, time.Unix(1700000100, 0), func(a string) bool { return a == "ws://localhost:8080" }); err != nil {
		t.Fatal(err)
	}
	pub, err := relay.ParseDIDKey(relay.DIDKey(key.Public().(ed25519.PublicKey)))
	if err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("did:key round trip: %v", err)
	}
	for _, bad := range []string{"did:key:z", "did:key:zzzz", "did:web:example.com", "did:key:z0OIl"} {
		if _, err := relay.ParseDIDKey(bad); err == nil {
			t.Errorf("ParseDIDKey(%q) accepted", bad)
		}
	}
}
