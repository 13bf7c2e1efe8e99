package names

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
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

const testZone = "latch.test"

// devChainID is the chain the tests register on: its coin type is
// 0x80000000 | 31337.
const devChainID = 31337

// testClock is a settable clock.
type testClock struct{ t time.Time }

func (c *testClock) Now() time.Time { return c.t }

// MustService returns a Service over db with an EOA-only verifier (no
// chain) and a clock stopped at 2026-01-01, without reserved names or daily
// limits,
// and options changes its Config.
func MustService(tb testing.TB, db *store.DB, v Verifier, options ...func(*Config)) (*Service, *testClock) {
	tb.Helper()
	clock := &testClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if v == nil {
		v = SignatureVerifier{}
	}
	cfg := Config{DB: db, Zone: testZone, Verifier: v, Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ChainSupported: func(id uint64) bool { return id == 1 || id == devChainID }}
	for _, o := range options {
		o(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return svc, clock
}

// callerOf is the Latch account of a test signer: one account per key,
// asking from one documentation address (RFC 5737).
func callerOf(s signer) Caller {
	return Caller{Account: "user-" + strings.ToLower(s.addr.Hex()[2:]), IP: "192.0.2.1"}
}

// signer is a test account with a key.
type signer struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newSigner(tb testing.TB) signer {
	key, err := crypto.GenerateKey()
	if err != nil {
		tb.Fatal(err)
	}
	return signer{key, crypto.PubkeyToAddress(key.PublicKey)}
}

// personalSign signs msg as personal_sign does (v = 27 or 28).
func (s signer) personalSign(tb testing.TB, msg string) string {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), s.key)
	if err != nil {
		tb.Fatal(err)
	}
	sig[64] += 27
	return hexutil.Encode(sig)
}

// registration is what the widget sends: the message signed by by, for addr.
func registration(tb testing.TB, by signer, addr common.Address, name string, attrs map[string]string, ts time.Time) Registration {
	if attrs == nil {
		attrs = map[string]string{}
	}
	msg, _ := json.Marshal(map[string]any{"name": name, "attributes": attrs, "timestamp": ts.Unix()})
	return Registration{CoinType: 0x80000000 | devChainID, Address: addr.Hex(), Message: string(msg), Signature: by.personalSign(tb, string(msg))}
}

// wantErr fails unless err has the code and its message contains text.
func wantErr(tb testing.TB, err error, code, text string) {
	tb.Helper()
	if err == nil {
		tb.Fatalf("no error; want %s %q", code, text)
	}
	if apperr.Code(err) != code || !strings.Contains(err.Error(), text) {
		tb.Fatalf("error %v; want %s containing %q", err, code, text)
	}
}

func TestService_Register(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, clock := MustService(t, db, nil)
		alice, bob := newSigner(t), newSigner(t)

		t.Run("OK", func(t *testing.T) {
			rec, err := svc.Register(ctx, registration(t, alice, alice.addr, "Alice.latch.test", map[string]string{"bio": "hi"}, clock.t), callerOf(alice))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Name != "alice.latch.test" || rec.Owner() != alice.addr || rec.Attributes["bio"] != "hi" {
				t.Fatalf("record %+v", rec)
			}
			for _, ct := range []string{"60", fmt.Sprint(0x80000000 | devChainID)} {
				if rec.Addresses[ct].Address != alice.addr.Hex() {
					t.Fatalf("addresses %v lack coin type %s", rec.Addresses, ct)
				}
			}
			if rec.RegisteredAt != "2026-01-01T00:00:00Z" {
				t.Fatalf("registered_at %s", rec.RegisteredAt)
			}
		})
		t.Run("LookupAndReverse", func(t *testing.T) {
			rec, err := svc.Lookup(ctx, "alice.latch.test")
			if err != nil || rec == nil || rec.Owner() != alice.addr {
				t.Fatalf("lookup %+v, %v", rec, err)
			}
			if rec, err := svc.Lookup(ctx, "nobody"); err != nil || rec != nil {
				t.Fatalf("lookup of an unregistered name %+v, %v", rec, err)
			}
			recs, err := svc.Reverse(ctx, alice.addr)
			if err != nil || len(recs) != 1 || recs[0].Name != "alice.latch.test" {
				t.Fatalf("reverse %+v, %v", recs, err)
			}
			if recs, err := svc.Reverse(ctx, bob.addr); err != nil || len(recs) != 0 {
				t.Fatalf("reverse of an address without name %+v, %v", recs, err)
			}
		})
		t.Run("ErrReplay", func(t *testing.T) {
			reg := registration(t, bob, bob.addr, "bobby", nil, clock.t)
			if _, err := svc.Register(ctx, reg, callerOf(bob)); err != nil {
				t.Fatal(err)
			}
			clock.t = clock.t.Add(5 * time.Second) // still within the window
			_, err := svc.Register(ctx, reg, callerOf(bob))
			wantErr(t, err, apperr.Conflict, "already used")
		})
		t.Run("ErrNameTaken", func(t *testing.T) {
			carol := newSigner(t)
			_, err := svc.Register(ctx, registration(t, carol, carol.addr, "alice", nil, clock.t), callerOf(carol))
			wantErr(t, err, apperr.Conflict, "alice.latch.test is taken")
			if recs, _ := svc.Reverse(ctx, carol.addr); len(recs) != 0 {
				t.Fatal("a refused registration left a name")
			}
		})
		t.Run("ErrSecondName", func(t *testing.T) {
			_, err := svc.Register(ctx, registration(t, alice, alice.addr, "alice-two", nil, clock.t), callerOf(alice))
			wantErr(t, err, apperr.Conflict, "already has the name alice.latch.test")
		})
		t.Run("ReRegisterUpdatesAttributes", func(t *testing.T) {
			clock.t = clock.t.Add(time.Minute)
			rec, err := svc.Register(ctx, registration(t, alice, alice.addr, "alice", map[string]string{"avatar": "https://example.com/a.png"}, clock.t), callerOf(alice))
			if err != nil {
				t.Fatal(err)
			}
			if rec.Attributes["avatar"] != "https://example.com/a.png" || rec.Attributes["bio"] != "" || rec.RegisteredAt == rec.UpdatedAt {
				t.Fatalf("record %+v", rec)
			}
		})
		t.Run("ErrStaleTimestamp", func(t *testing.T) {
			dave := newSigner(t)
			for _, skew := range []time.Duration{-11 * time.Second, 11 * time.Second} {
				_, err := svc.Register(ctx, registration(t, dave, dave.addr, "dave", nil, clock.t.Add(skew)), callerOf(dave))
				wantErr(t, err, apperr.Invalid, "more than 10 seconds")
			}
			for _, skew := range []time.Duration{-10 * time.Second, 10 * time.Second} {
				if _, err := svc.Register(ctx, registration(t, dave, dave.addr, "dave", nil, clock.t.Add(skew)), callerOf(dave)); err != nil {
					t.Fatalf("skew %s: %v", skew, err)
				}
			}
		})
		t.Run("ErrWrongSigner", func(t *testing.T) {
			erin, mallory := newSigner(t), newSigner(t)
			_, err := svc.Register(ctx, registration(t, mallory, erin.addr, "erin", nil, clock.t), callerOf(mallory))
			wantErr(t, err, apperr.Unauthorized, "not signed by "+erin.addr.Hex())
			if rec, _ := svc.Lookup(ctx, "erin"); rec != nil {
				t.Fatal("a refused registration left a name")
			}
		})
		t.Run("ErrTamperedMessage", func(t *testing.T) {
			erin := newSigner(t)
			reg := registration(t, erin, erin.addr, "erin", nil, clock.t)
			reg.Message = strings.Replace(reg.Message, "erin", "eriq", 1)
			_, err := svc.Register(ctx, reg, callerOf(erin))
			wantErr(t, err, apperr.Unauthorized, "not signed by")
		})
		t.Run("ErrNameRules", func(t *testing.T) {
			frank := newSigner(t)
			for name, text := range map[string]string{"abc": "at least 4", "fr@nk": "letters, digits and hyphens", "frank.eth": "not a name of the zone", "": "required"} {
				_, err := svc.Register(ctx, registration(t, frank, frank.addr, name, nil, clock.t), callerOf(frank))
				wantErr(t, err, apperr.Invalid, text)
			}
		})
		t.Run("ErrRequest", func(t *testing.T) {
			gina := newSigner(t)
			reg := registration(t, gina, gina.addr, "gina", nil, clock.t)
			for _, tt := range []struct {
				edit func(*Registration)
				text string
			}{
				{func(r *Registration) { r.CoinType = 0x80000000 | 5 }, "Unsupported coin type"},
				{func(r *Registration) { r.CoinType = 501 }, "Unsupported coin type"},
				{func(r *Registration) { r.Address = "0x1234" }, "not an EVM address"},
				{func(r *Registration) { r.Message = "gina" }, "must be JSON"},
				{func(r *Registration) { r.Message = `{"name":"gina","attributes":{}}` }, "must be JSON"},
				{func(r *Registration) { r.Message = `{"name":"gina","attributes":{"x":"y"},"timestamp":1767225600}` }, "Unknown attribute"},
				{func(r *Registration) { r.Signature = "abcd" }, "0x-prefixed hex"},
				{func(r *Registration) {
					r.Message = `{"name":"gina","attributes":{"avatar":"http://example.com/a.png"},"timestamp":1767225600}`
				}, "avatar must be"},
			} {
				r := reg
				tt.edit(&r)
				_, err := svc.Register(ctx, r, callerOf(gina))
				wantErr(t, err, apperr.Invalid, tt.text)
			}
		})
	})
}

func TestService_Suggestions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, clock := MustService(t, db, nil)
		for _, name := range []string{"alice", "alice1", "alice3"} {
			s := newSigner(t)
			if _, err := svc.Register(ctx, registration(t, s, s.addr, name, nil, clock.t), callerOf(s)); err != nil {
				t.Fatal(err)
			}
		}
		t.Run("Taken", func(t *testing.T) {
			got, err := svc.Suggestions(ctx, "Alice")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1+maxSuggestions || got[0] != (Suggestion{Name: "alice.latch.test", Registered: true}) {
				t.Fatalf("suggestions %+v", got)
			}
			for _, s := range got[1:] {
				if s.Registered || s.Name == "alice1.latch.test" || s.Name == "alice3.latch.test" {
					t.Fatalf("suggested a taken name: %+v", got)
				}
				if rec, _ := svc.Lookup(ctx, s.Name); rec != nil {
					t.Fatalf("suggested %s, which is registered", s.Name)
				}
			}
		})
		t.Run("Free", func(t *testing.T) {
			got, err := svc.Suggestions(ctx, "zelda")
			if err != nil || len(got) != 1 || got[0] != (Suggestion{Name: "zelda.latch.test"}) {
				t.Fatalf("suggestions %+v, %v", got, err)
			}
		})
		t.Run("ErrShort", func(t *testing.T) {
			_, err := svc.Suggestions(ctx, "abc")
			wantErr(t, err, apperr.Invalid, "at least 4")
		})
	})
}
