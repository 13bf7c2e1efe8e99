package relay_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/relay"
)

// signClaims signs a token with the given iat and exp (unix seconds; 0
// leaves the claim out).
func signClaims(key ed25519.PrivateKey, aud string, iat, exp int64) string {
	enc := base64.RawURLEncoding
	claims := map[string]any{"iss": relay.DIDKey(key.Public().(ed25519.PublicKey)), "sub": "s", "aud": aud}
	if iat != 0 {
		claims["iat"] = iat
	}
	if exp != 0 {
		claims["exp"] = exp
	}
	payload, _ := json.Marshal(claims)
	data := enc.EncodeToString([]byte(`{"alg":"EdDSA","typ":"JWT"}`)) + "." + enc.EncodeToString(payload)
	return data + "." + enc.EncodeToString(ed25519.Sign(key, []byte(data)))
}

// TestTokenPolicy: a token's lifetime and issue time are bounded (issue 15,
// finding 7).
func TestTokenPolicy(t *testing.T) {
	id := newIdentity(t)
	now := time.Now()
	aud := func(s string) bool { return s == "wss://relay.example" }
	for _, tc := range []struct {
		name     string
		iat, exp time.Time
		policy   relay.TokenPolicy
		want     string
	}{
		{"OKOneDay", now, now.Add(24 * time.Hour), relay.TokenPolicy{}, ""},
		{"OKSlightlyAhead", now.Add(time.Minute), now.Add(time.Hour), relay.TokenPolicy{}, ""},
		{"ErrYear5000", now, time.Date(5000, 1, 1, 0, 0, 0, 0, time.UTC), relay.TokenPolicy{}, "lifetime"},
		{"ErrTwoDays", now.Add(-time.Hour), now.Add(47 * time.Hour), relay.TokenPolicy{}, "lifetime"},
		{"ErrIssuedAYearAhead", now.Add(365 * 24 * time.Hour), now.Add(365*24*time.Hour + time.Hour), relay.TokenPolicy{}, "issued in the future"},
		{"ErrExpBeforeIat", now, now.Add(-time.Second), relay.TokenPolicy{}, "expired"},
		{"ErrNoIat", time.Time{}, now.Add(time.Hour), relay.TokenPolicy{}, "no valid iat"},
		{"ErrOverConfiguredLifetime", now, now.Add(2 * time.Hour), relay.TokenPolicy{MaxLifetime: time.Hour}, "at most 1h0m0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var iat int64
			if !tc.iat.IsZero() {
				iat = tc.iat.Unix()
			}
			_, err := tc.policy.Verify(signClaims(id.key, "wss://relay.example", iat, tc.exp.Unix()), now, aud)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestServer_AudienceFromConfig: without a PublicURL the audience is the
// listener's URL, never the request's Host header (issue 15, finding 7).
func TestServer_AudienceFromConfig(t *testing.T) {
	srv := newTestServer(t)
	who := newIdentity(t)
	dialHost := func(aud, host string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q := url.Values{"auth": {relay.SignToken(who.key, "s", aud, time.Now(), time.Hour)}, "projectId": {testProject}}
		ws, _, err := websocket.Dial(ctx, srv.url+"/?"+q.Encode(), &websocket.DialOptions{Host: host})
		if err == nil {
			ws.CloseNow()
		}
		return err
	}
	// A token for an attacker's host, sent with that Host header.
	if err := dialHost("ws://evil.example", "evil.example"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("token for the request's Host: %v, want 401", err)
	}
	// Loopback names are one listener.
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.url, "ws://"), ":")
	c := dial(t, connectURL(srv.url, who, "ws://localhost:"+port))
	c.ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
}
