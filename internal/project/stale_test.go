package project_test

import (
	"context"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// While the database is away, a project whose cache entry expired is
// served from its last known settings, for up to MaxStale; anything the
// cache cannot answer is unavailable (503), not forbidden or internal.
func TestService_LookupStaleWhileDatabaseAway(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	clock := start
	now := func() time.Time { return clock }
	b := breaker.New(breaker.Config{Name: "sqlite", Failures: 1, OpenFor: time.Hour, Now: now})
	db, err := store.OpenWith(ctx, "", t.TempDir(), store.Options{Breaker: b})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := project.NewService(db)
	svc.SetClock(now)
	svc.MaxStale = 10 * time.Minute
	stale := 0
	svc.OnStale = func() { stale++ }
	p := &project.Project{Name: "in use", Features: project.DefaultFeatures()}
	if err := svc.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Lookup(ctx, p.ID); err != nil {
		t.Fatal(err)
	}

	// The database goes away; the entry expires.
	b.Allow(ctx)
	b.Record(ctx, breaker.Failed)
	clock = clock.Add(time.Minute)
	got, err := svc.Lookup(ctx, p.ID)
	if err != nil || got.ID != p.ID || stale != 1 {
		t.Fatalf("expired entry with the database away: %v %v (%d stale), want the last known project", got, err, stale)
	}
	if _, err := svc.Lookup(ctx, project.NewID()); apperr.Code(err) != apperr.Unavailable {
		t.Fatalf("an id never seen: %v, want unavailable", err)
	}
	clock = clock.Add(10 * time.Minute) // past MaxStale after expiry
	if _, err := svc.Lookup(ctx, p.ID); apperr.Code(err) != apperr.Unavailable {
		t.Fatalf("past MaxStale: %v, want unavailable", err)
	}
	clock = clock.Add(time.Hour) // the breaker probes; the database answers
	if got, err := svc.Lookup(ctx, p.ID); err != nil || got.ID != p.ID {
		t.Fatalf("the database back: %v %v", got, err)
	}
}
