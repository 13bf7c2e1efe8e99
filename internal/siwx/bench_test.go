package siwx

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/pkg/siwx"
)

// benchSignIns times nonce + sign-in (IssueNonce, then Authenticate: spend
// the nonce, parse, check, verify the signature, store the session in
// SQLite) and reports the 50th and 99th percentiles. The message is signed
// outside the timing, as the wallet does it.
func benchSignIns(b *testing.B, e *env, addr string, chainID string, sign func(string) string) {
	ctx := context.Background()
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		// The message needs the nonce, so it is made after it; its signing is not timed.
		start := time.Now()
		g, err := e.svc.IssueNonce(ctx, e.p, "app.example.com")
		if err != nil {
			b.Fatal(err)
		}
		issued := time.Since(start)
		b.StopTimer()
		msg := e.message(addr, chainID, g.Nonce).String()
		sig := sign(msg)
		b.StartTimer()
		start = time.Now()
		if _, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: sig}); err != nil {
			b.Fatal(err)
		}
		times = append(times, issued+time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

func BenchmarkSignIn_EOA(b *testing.B) {
	e := newEnv(b, nil, nil, nil, nil)
	key, _ := crypto.GenerateKey()
	benchSignIns(b, e, crypto.PubkeyToAddress(key.PublicKey).Hex(), "eip155:1", func(msg string) string { return signEOA(key, msg) })
}

func BenchmarkSignIn_ERC1271(b *testing.B) {
	ch := startChain(b)
	chains := func(string) (siwx.EthCaller, error) { return EVMCaller{Client: ch.client}, nil }
	e := newEnv(b, nil, nil, chains, &clock{t: time.Now().UTC().Truncate(time.Second)})
	owner, _ := crypto.GenerateKey()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	salt := [32]byte{9}
	data, _ := ch.abi.Pack("deploy", ownerAddr, salt)
	ch.send(&ch.factory, data)
	wallet := ch.walletAddress(ownerAddr, salt)
	benchSignIns(b, e, wallet.Hex(), ch.chainID, func(msg string) string { return signEOA(owner, msg) })
}

// BenchmarkNonceVerify_EOA times nonce + verify without storing a session:
// IssueNonce, spending it, and pkg/siwx's Verify (parse, checks, ecrecover).
func BenchmarkNonceVerify_EOA(b *testing.B) {
	e := newEnv(b, nil, nil, nil, nil)
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
	ctx := context.Background()
	want := siwx.Expect{Domain: func(d string) bool { return e.svc.cfg.AllowDomain(e.p, d) }}
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		g, err := e.svc.IssueNonce(ctx, e.p, "app.example.com")
		if err != nil {
			b.Fatal(err)
		}
		issued := time.Since(start)
		b.StopTimer()
		msg := e.message(addr, "eip155:1", g.Nonce).String()
		sig := signEOA(key, msg)
		b.StartTimer()
		start = time.Now()
		n, err := e.nonces.Take(ctx, g.Token)
		if err != nil {
			b.Fatal(err)
		}
		want.Nonce = n.Value
		if _, err := e.svc.cfg.Verifier.Verify(ctx, msg, sig, want); err != nil {
			b.Fatal(err)
		}
		times = append(times, issued+time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}
