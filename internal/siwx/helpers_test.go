package siwx

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/pkg/siwx"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newClock() *clock               { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

const solanaMainnet = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"

type env struct {
	t      testing.TB
	svc    *Service
	clock  *clock
	p, p2  *project.Project
	db     *store.DB
	nonces NonceStore
}

// newEnv starts a Service over db with two projects: p allows
// https://app.example.com, p2 https://other.example.com. chains answers
// eth_call for smart-account signatures (nil: none).
func newEnv(t testing.TB, db *store.DB, nonces NonceStore, chains func(string) (siwx.EthCaller, error), clk *clock) *env {
	t.Helper()
	if db == nil {
		db = storetest.MustOpenSQLite(t)
	}
	if clk == nil {
		clk = newClock()
	}
	if nonces == nil {
		nonces = NewMemoryNonces(clk.Now)
	}
	projects := project.NewService(db)
	p := &project.Project{Name: "App", Origins: []string{"https://app.example.com"}}
	p2 := &project.Project{Name: "Other", Origins: []string{"https://other.example.com"}}
	for _, pr := range []*project.Project{p, p2} {
		if err := projects.Create(context.Background(), pr); err != nil {
			t.Fatal(err)
		}
	}
	known := map[string]bool{"eip155:1": true, "eip155:10": true, solanaMainnet: true}
	svc := NewService(Config{
		Nonces:   nonces,
		Store:    NewStore(db),
		Verifier: &siwx.Verifier{Now: clk.Now, Chains: chains},
		AllowDomain: func(p *project.Project, d string) bool {
			return p.AllowsOrigin("https://"+d, false)
		},
		KnownChain: func(id string) bool { return known[id] || strings.HasPrefix(id, "eip155:4") },
		Now:        clk.Now,
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	return &env{t: t, svc: svc, clock: clk, p: p, p2: p2, db: db, nonces: nonces}
}

// message is a valid EIP-4361 message for addr on app.example.com.
func (e *env) message(addr, chainID, nonce string) *siwx.Message {
	now := e.clock.Now()
	exp := now.Add(10 * time.Minute)
	return &siwx.Message{
		Domain: "app.example.com", Namespace: siwx.EIP155, Address: addr, Statement: "Sign in to App",
		URI: "https://app.example.com/", Version: "1", ChainID: chainID, Nonce: nonce,
		IssuedAt: now, ExpirationTime: &exp,
	}
}

func (e *env) nonce(p *project.Project, domain string) Grant {
	e.t.Helper()
	g, err := e.svc.IssueNonce(context.Background(), p, domain)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

func personalSign(key *ecdsa.PrivateKey, msg string) []byte {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		panic(err)
	}
	sig[64] += 27
	return sig
}

func signEOA(key *ecdsa.PrivateKey, msg string) string { return hexutil.Encode(personalSign(key, msg)) }

func signSolana(key ed25519.PrivateKey, msg string) string {
	return encodeB58(ed25519.Sign(key, []byte(msg)))
}

// wantErr fails unless err is an *apperr.Error with code and field, whose
// message contains text.
func wantErr(t *testing.T, err error, code, field, text string) {
	t.Helper()
	e := apperr.As(err)
	if e == nil || e.Code != code || e.Field != field || !strings.Contains(e.Message, text) {
		t.Fatalf("err = %v, want %s on %q containing %q", err, code, field, text)
	}
}
