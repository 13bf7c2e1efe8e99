package siwx

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/pkg/siwx"
)

func TestService_Authenticate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		testAuthenticate(t, db)
	})
}

func testAuthenticate(t *testing.T, db *store.DB) {
	ctx := context.Background()
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()

	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "app.example.com")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		sess, token, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg), Data: &MessageData{ChainID: "eip155:1", AccountAddress: addr}})
		if err != nil {
			t.Fatal(err)
		}
		if sess.Address != addr || sess.ChainID != "eip155:1" || sess.Kind != siwx.KindEIP191 || sess.Message != msg || !strings.HasPrefix(token, "siwx_") {
			t.Fatalf("session %+v", sess)
		}
		var cacao siwx.CACAO
		if err := json.Unmarshal([]byte(sess.CACAO), &cacao); err != nil || cacao.P.Iss != "did:pkh:eip155:1:"+addr || cacao.S.T != "eip191" {
			t.Fatalf("cacao %s (%v)", sess.CACAO, err)
		}
		// The session ends with its message's expirationTime (10 min), not the 7-day default.
		if want := e.clock.Now().Add(10 * time.Minute); !sess.ExpiresAt.Equal(want) {
			t.Fatalf("expires %v, want %v", sess.ExpiresAt, want)
		}
		got, err := e.svc.Session(ctx, e.p, token)
		if err != nil || got.ID != sess.ID {
			t.Fatalf("Session = %+v, %v", got, err)
		}
		if _, err := e.svc.Session(ctx, e.p2, token); apperr.Code(err) != apperr.Unauthorized {
			t.Fatalf("another project's token: %v", err)
		}
		e.clock.Add(10 * time.Minute)
		if _, err := e.svc.Session(ctx, e.p, token); apperr.Code(err) != apperr.Unauthorized {
			t.Fatalf("expired session: %v", err)
		}
	})

	t.Run("ErrReplayedNonce", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		req := AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)}
		if _, _, err := e.svc.Authenticate(ctx, e.p, g.Token, req); err != nil {
			t.Fatal(err)
		}
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, req)
		wantErr(t, err, apperr.Unauthorized, "nonce", msgNonceUnknown)
	})
	t.Run("ErrNonceSpentByFailure", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		other, _ := crypto.GenerateKey()
		if _, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(other, msg)}); err == nil {
			t.Fatal("another key's signature was accepted")
		}
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Unauthorized, "nonce", msgNonceUnknown)
	})
	t.Run("ErrNonceFromAnotherProject", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p2, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Forbidden, "nonce", msgNonceProject)
	})
	t.Run("ErrNonceExpired", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		e.clock.Add(NonceLifetime)
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Unauthorized, "nonce", msgNonceUnknown)
	})
	t.Run("ErrNonceOtherValue", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		other := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", other.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Unauthorized, "nonce", "Nonce does not match")
	})
	t.Run("ErrNoNonceToken", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		_, _, err := e.svc.Authenticate(ctx, e.p, "", AuthenticateRequest{Message: "x", Signature: "0x"})
		wantErr(t, err, apperr.Unauthorized, "x-nonce-jwt", msgNonceToken)
	})
	t.Run("ErrWrongDomain", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		m := e.message(addr, "eip155:1", g.Nonce)
		m.Domain, m.URI = "other.example.com", "https://other.example.com/"
		msg := m.String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Forbidden, "domain", "Domain other.example.com is not allowed")
	})
	t.Run("ErrDomainNotTheNonces", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		e.p.Origins = append(e.p.Origins, "https://second.example.com")
		g := e.nonce(e.p, "second.example.com")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Forbidden, "domain", msgNonceDomain)
	})
	t.Run("ErrURI", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		m := e.message(addr, "eip155:1", g.Nonce)
		m.URI = "https://evil.example.net/"
		msg := m.String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Forbidden, "uri", "is not on the domain")
	})
	t.Run("ErrWrongChain", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg), Data: &MessageData{ChainID: "eip155:10"}})
		wantErr(t, err, apperr.Invalid, "chainId", "Chain eip155:1 of the message differs from the chain eip155:10")
	})
	t.Run("ErrOtherAccount", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		other, _ := crypto.GenerateKey()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg), Data: &MessageData{AccountAddress: crypto.PubkeyToAddress(other.PublicKey).Hex()}})
		wantErr(t, err, apperr.Invalid, "accountAddress", "differs from the account")
		// The same address in lower case is the same account.
		g = e.nonce(e.p, "")
		msg = e.message(addr, "eip155:1", g.Nonce).String()
		if _, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg), Data: &MessageData{AccountAddress: strings.ToLower(addr)}}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrUnknownChain", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:999", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Invalid, "chainId", "Chain eip155:999 is not one this latchd serves")
	})
	t.Run("ErrExpired", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		m := e.message(addr, "eip155:1", g.Nonce)
		exp := e.clock.Now().Add(-2 * time.Minute)
		m.IssuedAt, m.ExpirationTime = exp.Add(-time.Minute), &exp
		msg := m.String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Unauthorized, "expirationTime", "Message expired at")
	})
	t.Run("ErrNotYetValid", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		m := e.message(addr, "eip155:1", g.Nonce)
		nbf := e.clock.Now().Add(3 * time.Minute)
		m.NotBefore = &nbf
		msg := m.String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Unauthorized, "notBefore", "Message is not valid before")
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := strings.Replace(e.message(addr, "eip155:1", g.Nonce).String(), "Version: 1", "Version: 2", 1)
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
		wantErr(t, err, apperr.Invalid, "version", "Version must be 1")
	})
	t.Run("ErrSignature", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		g := e.nonce(e.p, "")
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		_, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg+"x")})
		// No RPC in this env: the signature is not the EOA's and cannot be asked as a contract's.
		wantErr(t, err, apperr.Unavailable, "signature", "Signature is not "+addr+"'s as an EOA")
	})
	t.Run("Solana", func(t *testing.T) {
		e := newEnv(t, db, nil, nil, nil)
		pub, priv, _ := ed25519.GenerateKey(nil)
		g := e.nonce(e.p, "")
		m := e.message(encodeB58(pub), solanaMainnet, g.Nonce)
		m.Namespace = siwx.Solana
		msg := m.String()
		sess, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signSolana(priv, msg)})
		if err != nil || sess.Kind != siwx.KindEd25519 {
			t.Fatalf("session %+v, %v", sess, err)
		}
		g = e.nonce(e.p, "")
		m.Nonce = g.Nonce
		msg = m.String()
		_, other, _ := ed25519.GenerateKey(nil)
		_, _, err = e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signSolana(other, msg)})
		wantErr(t, err, apperr.Unauthorized, "signature", "Signature is not "+encodeB58(pub)+"'s")
	})
}

func TestService_Sessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, nil, nil, nil)
		key, _ := crypto.GenerateKey()
		addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
		signIn := func(chainID string) (*Session, string) {
			g := e.nonce(e.p, "")
			msg := e.message(addr, chainID, g.Nonce).String()
			s, tok, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: signEOA(key, msg)})
			if err != nil {
				t.Fatal(err)
			}
			return s, tok
		}
		s1, tok1 := signIn("eip155:1")
		e.clock.Add(time.Second)
		s2, tok2 := signIn("eip155:1")
		s3, _ := signIn("eip155:10") // another account (chain)

		list, err := e.svc.Sessions(ctx, e.p, tok1)
		if err != nil || len(list) != 2 || list[0].ID != s2.ID || list[1].ID != s1.ID {
			t.Fatalf("Sessions = %v, %v", list, err)
		}
		if _, err := e.svc.Get(ctx, e.p, tok1, s3.ID); apperr.Code(err) != apperr.NotFound {
			t.Fatalf("Get of another account's session: %v", err)
		}
		if _, err := e.svc.Get(ctx, e.p2, tok1, s1.ID); apperr.Code(err) != apperr.Unauthorized {
			t.Fatalf("Get from another project: %v", err)
		}
		if err := e.svc.Revoke(ctx, e.p, tok1, s2.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Session(ctx, e.p, tok2); apperr.Code(err) != apperr.Unauthorized {
			t.Fatalf("revoked session still valid: %v", err)
		}
		got, err := e.svc.Get(ctx, e.p, tok1, s2.ID)
		if err != nil || got.RevokedAt == nil || got.Active(e.clock.Now()) {
			t.Fatalf("revoked session = %+v, %v", got, err)
		}
		if err := e.svc.SignOut(ctx, e.p, tok1); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.SignOut(ctx, e.p, tok1); apperr.Code(err) != apperr.Unauthorized {
			t.Fatalf("second sign-out: %v", err)
		}
	})
}

func TestService_Verify(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, nil, nil, nil, nil)
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
	msg := e.message(addr, "eip155:1", "backend0nce1").String()
	in, err := e.svc.Verify(ctx, e.p, VerifyRequest{Message: msg, Signature: signEOA(key, msg), Nonce: "backend0nce1"})
	if err != nil || in.Message.Address != addr {
		t.Fatalf("Verify = %+v, %v", in, err)
	}
	_, err = e.svc.Verify(ctx, e.p, VerifyRequest{Message: msg, Signature: signEOA(key, msg), Nonce: "another0nce1"})
	wantErr(t, err, apperr.Unauthorized, "nonce", "Nonce does not match")
	_, err = e.svc.Verify(ctx, e.p2, VerifyRequest{Message: msg, Signature: signEOA(key, msg), Nonce: "backend0nce1"})
	wantErr(t, err, apperr.Forbidden, "domain", "not allowed")
	_, err = e.svc.Verify(ctx, e.p, VerifyRequest{Message: msg, Signature: signEOA(key, msg)})
	wantErr(t, err, apperr.Invalid, "nonce", "nonce is required")
}
