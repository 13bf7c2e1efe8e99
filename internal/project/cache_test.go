package project_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// Issue 15 finding 13: a flood of more than 10,000 unknown project ids must
// not evict the projects in use, so their lookups keep costing no query.
// The known project's row is deleted behind the service's back: a lookup
// that reached the database would then fail.
func TestService_LookupUnderUnknownFlood(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := project.NewService(db)
		// A stopped clock: 12,000 lookups on a loaded machine may outlast the known entry's 10 s, and the test is
		// about the caches' sizes, not their lifetimes.
		start := time.Now()
		svc.SetClock(func() time.Time { return start })
		p := &project.Project{Name: "in use", Features: project.DefaultFeatures()}
		if err := svc.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Lookup(ctx, p.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, `DELETE FROM projects WHERE id = ?`, p.ID); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 12_000; i++ {
			_, err := svc.Lookup(ctx, fmt.Sprintf("%032x", i+1))
			if apperr.Code(err) != apperr.Forbidden {
				t.Fatalf("unknown id %d: %v, want forbidden", i, err)
			}
			if known, unknown := svc.CacheLen(); known != 1 || unknown > 10_000 {
				t.Fatalf("after %d unknown ids: caches of %d known and %d unknown", i+1, known, unknown)
			}
		}
		got, err := svc.Lookup(ctx, p.ID)
		if err != nil || got.ID != p.ID {
			t.Fatalf("known project after the flood: %v %v, want it from the cache (no query)", got, err)
		}
	})
}
