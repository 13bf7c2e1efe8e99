package siwx

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/base58"
)

var testNow = time.Date(2024, 1, 1, 0, 5, 0, 0, time.UTC)

// newMessage is a valid message for addr on app.example.com, issued a
// minute before testNow and expiring five minutes after it.
func newMessage(addr string) *Message {
	exp := testNow.Add(5 * time.Minute)
	return &Message{
		Domain: "app.example.com", Namespace: EIP155, Address: addr, Statement: "Sign in to Example",
		URI: "https://app.example.com/login", Version: "1", ChainID: "eip155:1", Nonce: "n0nce0123456",
		IssuedAt: testNow.Add(-time.Minute), ExpirationTime: &exp,
	}
}

func signEOA(key *ecdsa.PrivateKey, msg string) string {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		panic(err)
	}
	sig[64] += 27
	return hexutil.Encode(sig)
}

func expect() Expect {
	return Expect{Domain: func(d string) bool { return d == "app.example.com" }, Nonce: "n0nce0123456", ChainIDs: []string{"eip155:1", "eip155:10"}}
}

func TestVerifier_Verify(t *testing.T) {
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
	v := &Verifier{Now: func() time.Time { return testNow }}
	ctx := context.Background()

	t.Run("EOA", func(t *testing.T) {
		msg := newMessage(addr).String()
		got, err := v.Verify(ctx, msg, signEOA(key, msg), expect())
		if err != nil {
			t.Fatal(err)
		}
		if got.Kind != KindEIP191 || got.Message.Address != addr {
			t.Fatalf("got %+v", got)
		}
		c := got.CACAO()
		if c.H.T != "eip4361" || c.P.Iss != "did:pkh:eip155:1:"+addr || c.S.T != "eip191" || c.P.Aud != "https://app.example.com/login" {
			t.Fatalf("cacao %+v", c)
		}
	})
	for _, tt := range []struct {
		name   string
		edit   func(m *Message)
		want   func(e *Expect)
		reason string
	}{
		{"ErrDomain", func(m *Message) { m.Domain, m.URI = "evil.example.com", "https://evil.example.com/" }, nil, ReasonDomain},
		{"ErrURIOffDomain", func(m *Message) { m.URI = "https://evil.example.com/login" }, nil, ReasonURI},
		{"ErrURISchemeMismatch", func(m *Message) { m.Scheme = "http" }, nil, ReasonURI},
		{"ErrChain", func(m *Message) { m.ChainID = "eip155:137" }, nil, ReasonChain},
		{"ErrNonce", func(m *Message) { m.Nonce = "other0123456" }, nil, ReasonNonce},
		{"ErrNoNonceIssued", nil, func(e *Expect) { e.Nonce = "" }, ReasonNonce},
		{"ErrNoDomainRule", nil, func(e *Expect) { e.Domain = nil }, ReasonDomain},
		{"ErrExpired", func(m *Message) { t := testNow.Add(-DefaultSkew); m.ExpirationTime = &t }, nil, ReasonExpired},
		{"ErrNotYetValid", func(m *Message) { t := testNow.Add(DefaultSkew + time.Second); m.NotBefore = &t }, nil, ReasonNotYetValid},
		{"ErrIssuedInFuture", func(m *Message) { m.IssuedAt = testNow.Add(DefaultSkew + time.Second) }, nil, ReasonNotYetValid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newMessage(addr)
			if tt.edit != nil {
				tt.edit(m)
			}
			want := expect()
			if tt.want != nil {
				tt.want(&want)
			}
			msg := m.String()
			_, err := v.Verify(ctx, msg, signEOA(key, msg), want)
			if ReasonOf(err) != tt.reason {
				t.Fatalf("err = %v, want reason %s", err, tt.reason)
			}
		})
	}
	t.Run("WithinSkew", func(t *testing.T) {
		m := newMessage(addr)
		exp := testNow.Add(-DefaultSkew + time.Second)
		m.ExpirationTime = &exp
		m.IssuedAt = testNow.Add(DefaultSkew - time.Second)
		msg := m.String()
		if _, err := v.Verify(ctx, msg, signEOA(key, msg), expect()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrSignatureOtherKey", func(t *testing.T) {
		other, _ := crypto.GenerateKey()
		msg := newMessage(addr).String()
		_, err := v.Verify(ctx, msg, signEOA(other, msg), expect())
		// Not the EOA's, and no chain to ask whether it is a contract's.
		if ReasonOf(err) != ReasonUnverifiable {
			t.Fatalf("err = %v", err)
		}
		v := &Verifier{Now: v.Now, Chains: func(string) (EthCaller, error) { return noCode{}, nil }}
		if _, err := v.Verify(ctx, msg, signEOA(other, msg), expect()); ReasonOf(err) != ReasonSignature {
			t.Fatalf("with a chain: err = %v", err)
		}
	})
	t.Run("ErrSignatureOtherMessage", func(t *testing.T) {
		msg := newMessage(addr).String()
		v := &Verifier{Now: v.Now, Chains: func(string) (EthCaller, error) { return noCode{}, nil }}
		if _, err := v.Verify(ctx, msg, signEOA(key, msg+" "), expect()); ReasonOf(err) != ReasonSignature {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrSignatureNotHex", func(t *testing.T) {
		msg := newMessage(addr).String()
		if _, err := v.Verify(ctx, msg, "zz", expect()); ReasonOf(err) != ReasonSignature {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrRPCDown", func(t *testing.T) {
		other, _ := crypto.GenerateKey()
		msg := newMessage(addr).String()
		v := &Verifier{Now: v.Now, Chains: func(string) (EthCaller, error) { return failing{}, nil }}
		_, err := v.Verify(ctx, msg, signEOA(other, msg), expect())
		if ReasonOf(err) != ReasonUnverifiable || !errors.Is(err, errDown) {
			t.Fatalf("err = %v", err)
		}
	})
}

// noCode answers eth_call as a node does for an address without code.
type noCode struct{}

func (noCode) EthCall(context.Context, *common.Address, []byte) ([]byte, error) { return nil, nil }

var errDown = errors.New("connection refused")

type failing struct{}

func (failing) EthCall(context.Context, *common.Address, []byte) ([]byte, error) { return nil, errDown }

func TestVerifier_Solana(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	m := newMessage(base58.Encode(pub))
	m.Namespace, m.ChainID = Solana, "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
	msg := m.String()
	if !strings.Contains(msg, "Solana account") {
		t.Fatal(msg)
	}
	want := expect()
	want.ChainIDs = nil
	v := &Verifier{Now: func() time.Time { return testNow }}
	t.Run("OK", func(t *testing.T) {
		got, err := v.Verify(context.Background(), msg, base58.Encode(ed25519.Sign(priv, []byte(msg))), want)
		if err != nil || got.Kind != KindEd25519 || got.CACAO().H.T != "caip122" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("ErrOtherKey", func(t *testing.T) {
		_, other, _ := ed25519.GenerateKey(nil)
		_, err := v.Verify(context.Background(), msg, base58.Encode(ed25519.Sign(other, []byte(msg))), want)
		if ReasonOf(err) != ReasonSignature {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrNotASignature", func(t *testing.T) {
		_, err := v.Verify(context.Background(), msg, "0xabcdef", want)
		if ReasonOf(err) != ReasonSignature {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestBase58(t *testing.T) {
	for _, s := range []string{"1", "11", "GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1", "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"} {
		b, err := base58.Decode(s)
		if err != nil || base58.Encode(b) != s {
			t.Fatalf("%s: %x, %v", s, b, err)
		}
	}
	if _, err := base58.Decode("0OIl"); err == nil {
		t.Fatal("decoded characters outside the alphabet")
	}
}
