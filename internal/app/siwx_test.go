package app_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/latchkit/latch/internal/siwx"
	"github.com/latchkit/latch/internal/store/storetest"
)

// siwxMessage is a signed sign-in of key on domain for an EVM chain.
func siwxMessage(key *ecdsa.PrivateKey, domain string, chainID int, nonce string) siwx.AuthenticateRequest {
	msg := fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nURI: http://%s/\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s",
		domain, crypto.PubkeyToAddress(key.PublicKey).Hex(), domain, chainID, nonce, time.Now().UTC().Format(time.RFC3339))
	sig, _ := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	sig[64] += 27
	return siwx.AuthenticateRequest{Message: msg, Signature: hexutil.Encode(sig)}
}

// --siwx-session-lifetime bounds the sessions latchd stores.
func TestSIWX_SessionLifetime(t *testing.T) {
	cfg := app.Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), DevChains: []uint64{31337},
		ShutdownTimeout: 5 * time.Second, SIWXSessionLifetime: 90 * time.Second}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	ctx := context.Background()
	p, err := m.Projects.Get(ctx, m.DevProjectID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.SIWX().IssueNonce(ctx, p, "localhost:5173")
	if err != nil {
		t.Fatal(err)
	}
	key, _ := crypto.GenerateKey()
	before := time.Now()
	s, _, err := m.SIWX().Authenticate(ctx, p, g.Token, siwxMessage(key, "localhost:5173", 31337, g.Nonce))
	if err != nil {
		t.Fatal(err)
	}
	if d := s.ExpiresAt.Sub(before); d < 89*time.Second || d > 91*time.Second {
		t.Fatalf("session lasts %v, want 90s", d)
	}
}

// Two latchd nodes sharing Redis: a nonce issued by one is spent once, on either.
func TestSIWX_NoncesSharedThroughRedis(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t)
	ctx := context.Background()
	p := &project.Project{ID: project.NewID(), Name: "Shared", Origins: []string{"http://app.example.com"}}
	node := func() *app.Main {
		cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), RedisURL: url, ShutdownTimeout: 5 * time.Second}
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		m.RedisPrefix = prefix
		if err := m.Run(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		pc := *p
		if err := m.Projects.Create(ctx, &pc); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := node(), node()
	g, err := a.SIWX().IssueNonce(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	key, _ := crypto.GenerateKey()
	req := siwxMessage(key, "app.example.com", 1, g.Nonce)
	if _, _, err := b.SIWX().Authenticate(ctx, p, g.Token, req); err != nil {
		t.Fatalf("node b spending node a's nonce: %v", err)
	}
	if _, _, err := a.SIWX().Authenticate(ctx, p, g.Token, req); apperr.Code(err) != apperr.Unauthorized {
		t.Fatalf("node a spending it again: %v", err)
	}
}

// callSIWX walks Sign-in with X through every route from the dapp page's
// (local, under dev) origin, checking each answer against the document and
// the status the flow expects.
func callSIWX(t *testing.T, c *contract, bases map[string]string, pid string) {
	const origin = "http://localhost:5173"
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
	send := func(op, path, body string, want int, hdr ...string) map[string]any {
		t.Helper()
		method, _, _ := strings.Cut(op, " ")
		status, _, b := c.do(t, bases, call{op: op, method: method, url: path + "?" + pid, body: body, hdr: append(hdr, "Origin", origin)})
		if status != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, b)
		}
		var v map[string]any
		json.Unmarshal(b, &v)
		return v
	}
	// signIn gets a nonce, signs a message with it and authenticates.
	signIn := func() (token string, body string) {
		t.Helper()
		g := send("GET /auth/v1/nonce", "/auth/v1/nonce", "", 200)
		msg := fmt.Sprintf("localhost:5173 wants you to sign in with your Ethereum account:\n%s\n\nSign in to the demo\n\n"+
			"URI: http://localhost:5173/\nVersion: 1\nChain ID: 31337\nNonce: %s\nIssued At: %s",
			addr, g["nonce"], time.Now().UTC().Format(time.RFC3339))
		sig, _ := crypto.Sign(accounts.TextHash([]byte(msg)), key)
		sig[64] += 27
		body = fmt.Sprintf(`{"message":%q,"signature":%q,"data":{"chainId":"eip155:31337","accountAddress":%q}}`, msg, hexutil.Encode(sig), addr)
		send("POST /auth/v1/authenticate", "/auth/v1/authenticate", body, 401) // no x-nonce-jwt: refused, nonce not spent
		got := send("POST /auth/v1/authenticate", "/auth/v1/authenticate", body, 200, "x-nonce-jwt", fmt.Sprintf("Bearer %v", g["token"]))
		send("POST /auth/v1/authenticate", "/auth/v1/authenticate", body, 401, "x-nonce-jwt", fmt.Sprintf("Bearer %v", g["token"])) // replayed
		verify := strings.Replace(body, `"data":{"chainId":"eip155:31337","accountAddress":"`+addr+`"}`, fmt.Sprintf(`"nonce":%q`, g["nonce"]), 1)
		return fmt.Sprint(got["token"]), verify
	}

	// A preflight of a sign-in route is the project's (the page's origin), not the frame's.
	status, _, b := c.do(t, bases, call{op: "OPTIONS /{path}", url: "/auth/v1/authenticate?" + pid, hdr: []string{"Origin", origin, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,x-nonce-jwt"}})
	if status != 204 {
		t.Fatalf("preflight of /auth/v1/authenticate: %d %s", status, b)
	}
	c.do(t, bases, call{op: "GET /auth/v1/nonce", url: "/auth/v1/nonce"})

	token, verifyBody := signIn()
	auth := []string{"Authorization", "Bearer " + token}
	me := send("GET /auth/v1/me", "/auth/v1/me", "", 200, auth...)
	if me["address"] != addr || me["caip2Network"] != "eip155:31337" || me["chainId"] != float64(31337) {
		t.Fatalf("me: %v", me)
	}
	send("GET /auth/v1/me", "/auth/v1/me", "", 401)

	list := send("GET /auth/v1/siwx/sessions", "/auth/v1/siwx/sessions", "", 200, auth...)
	sessions, _ := list["sessions"].([]any)
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", list)
	}
	id := fmt.Sprint(sessions[0].(map[string]any)["id"])
	send("GET /auth/v1/siwx/sessions", "/auth/v1/siwx/sessions", "", 401, "Authorization", "Bearer nope")
	send("GET /auth/v1/siwx/sessions/{id}", "/auth/v1/siwx/sessions/"+id, "", 200, auth...)
	send("GET /auth/v1/siwx/sessions/{id}", "/auth/v1/siwx/sessions/ses_nope", "", 404, auth...)

	v := send("POST /auth/v1/siwx/verify", "/auth/v1/siwx/verify", verifyBody, 200)
	if v["address"] != addr || v["kind"] != "eip191" {
		t.Fatalf("verify: %v", v)
	}
	send("POST /auth/v1/siwx/verify", "/auth/v1/siwx/verify", `{"message":"hello","signature":"0x","nonce":"abcdefgh1"}`, 400)

	send("POST /auth/v1/siwx/sessions/{id}/revoke", "/auth/v1/siwx/sessions/ses_nope/revoke", "", 404, auth...)
	token2, _ := signIn()
	send("POST /auth/v1/siwx/sessions/{id}/revoke", "/auth/v1/siwx/sessions/"+id+"/revoke", "", 200, "Authorization", "Bearer "+token2)
	send("GET /auth/v1/me", "/auth/v1/me", "", 401, auth...) // revoked

	send("POST /auth/v1/sign-out", "/auth/v1/sign-out", "", 200, "Authorization", "Bearer "+token2)
	send("POST /auth/v1/sign-out", "/auth/v1/sign-out", "", 401, "Authorization", "Bearer "+token2)
}

// --siwx-rate-limit caps sign-in requests per client IP.
func TestSIWX_RateLimit(t *testing.T) {
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second, SIWXRateLimit: 3}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p := &project.Project{Name: "Limited", Origins: []string{"https://app.example.com"}}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	c := client{t: t, base: m.APIURL()}
	for i := range 3 {
		if r := c.do("GET", "/auth/v1/nonce?projectId="+p.ID, ""); r.status != 200 {
			t.Fatalf("nonce %d: %d %s", i, r.status, r.body)
		}
	}
	r := c.do("GET", "/auth/v1/nonce?projectId="+p.ID, "")
	if r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Fatalf("4th nonce: %d %s", r.status, r.body)
	}
	// Over the limit, authenticate is refused before its body is read.
	if r := c.do("POST", "/auth/v1/authenticate?projectId="+p.ID, `{}`); r.status != 429 {
		t.Fatalf("authenticate over the limit: %d %s", r.status, r.body)
	}
}
