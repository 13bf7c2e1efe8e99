package siwx

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/redistest"
)

// testNonceStore checks the NonceStore contract on s, whose clock is clk.
func testNonceStore(t *testing.T, s NonceStore, clk *clock) {
	ctx := context.Background()
	n := Nonce{Value: "abcdef012345", ProjectID: "p1", Domain: "app.example.com", ExpiresAt: clk.Now().Add(NonceLifetime)}
	t.Run("TakeOnce", func(t *testing.T) {
		if err := s.Put(ctx, "tok-once", n); err != nil {
			t.Fatal(err)
		}
		got, err := s.Take(ctx, "tok-once")
		if err != nil || got != (Nonce{Value: n.Value, ProjectID: "p1", Domain: "app.example.com", ExpiresAt: got.ExpiresAt}) || !got.ExpiresAt.Equal(n.ExpiresAt) {
			t.Fatalf("Take = %+v, %v", got, err)
		}
		if _, err := s.Take(ctx, "tok-once"); !errors.Is(err, ErrNonceUnknown) {
			t.Fatalf("second Take: %v", err)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		if _, err := s.Take(ctx, "never-issued"); !errors.Is(err, ErrNonceUnknown) {
			t.Fatalf("Take = %v", err)
		}
	})
	t.Run("ErrPutTwice", func(t *testing.T) {
		if err := s.Put(ctx, "tok-twice", n); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, "tok-twice", n); err == nil {
			t.Fatal("Put replaced a live nonce")
		}
	})
	t.Run("ConcurrentTake", func(t *testing.T) {
		if err := s.Put(ctx, "tok-race", n); err != nil {
			t.Fatal(err)
		}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if _, err := s.Take(ctx, "tok-race"); err == nil {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d Takes won, want 1", wins.Load())
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		short := n
		short.ExpiresAt = clk.Now().Add(time.Minute)
		if err := s.Put(ctx, "tok-exp", short); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Minute)
		if _, err := s.Take(ctx, "tok-exp"); !errors.Is(err, ErrNonceUnknown) {
			t.Fatalf("Take of an expired nonce: %v", err)
		}
	})
}

func TestMemoryNonces(t *testing.T) {
	clk := newClock()
	testNonceStore(t, NewMemoryNonces(clk.Now), clk)
}

func TestRedisNonces(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	clk := newClock()
	testNonceStore(t, NewRedisNonces(client, prefix+"siwx-nonce:", clk.Now), clk)
	t.Run("SharedByNodes", func(t *testing.T) {
		// Two nodes: a nonce issued by one is spent once, on either.
		a := NewRedisNonces(client, prefix+"shared:", time.Now)
		b := NewRedisNonces(client, prefix+"shared:", time.Now)
		ctx := context.Background()
		if err := a.Put(ctx, "tok", Nonce{Value: "abcdef012345", ProjectID: "p", ExpiresAt: time.Now().Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Take(ctx, "tok"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Take(ctx, "tok"); !errors.Is(err, ErrNonceUnknown) {
			t.Fatalf("spent on b, taken again on a: %v", err)
		}
	})
}
