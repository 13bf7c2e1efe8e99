package telemetry_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/internal/telemetry"
)

func TestService_Ingest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		svc := telemetry.New(db, telemetry.Config{Now: c.Now})

		t.Run("OK", func(t *testing.T) {
			p := MustCreateProject(t, db, true)
			at := time.Date(2026, 3, 9, 23, 59, 59, 500e6, time.UTC)
			e := event(telemetry.TypeTrack, "MODAL_OPEN", at)
			stored, dropped, err := ingest(ctx, svc, p, "client", []telemetry.Event{e})
			if err != nil || stored != 1 || dropped != 0 {
				t.Fatalf("Ingest = %d, %d, %v; want 1, 0, nil", stored, dropped, err)
			}
			got := storedEvents(t, db, p.ID)
			want := []storedRow{{
				EventID: e.ID, Type: "track", Event: "MODAL_OPEN", Day: "2026-03-09",
				OccurredAt: at.UnixMilli(), ReceivedAt: now.UnixMilli(),
				URL: e.URL, Domain: e.Domain, Props: string(e.Props),
			}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("stored %+v, want %+v", got, want)
			}
		})

		t.Run("DuplicateStoredOnce", func(t *testing.T) {
			p := MustCreateProject(t, db, true)
			e := event(telemetry.TypeTrack, "MODAL_OPEN", now)
			stored, _, err := ingest(ctx, svc, p, "client", []telemetry.Event{e, e})
			if err != nil || stored != 1 {
				t.Fatalf("Ingest = %d, %v; want 1 stored", stored, err)
			}
			stored, _, err = ingest(ctx, svc, p, "client", []telemetry.Event{e})
			if err != nil || stored != 0 {
				t.Fatalf("retry Ingest = %d, %v; want 0 stored", stored, err)
			}
			if n := len(storedEvents(t, db, p.ID)); n != 1 {
				t.Fatalf("%d rows, want 1", n)
			}
			// The same event id in another project is another event.
			other := MustCreateProject(t, db, true)
			if stored, _, err := ingest(ctx, svc, other, "client", []telemetry.Event{e}); err != nil || stored != 1 {
				t.Fatalf("other project Ingest = %d, %v; want 1", stored, err)
			}
		})

		t.Run("ModalCreatedSkipped", func(t *testing.T) {
			p := MustCreateProject(t, db, true)
			stored, dropped, err := ingest(ctx, svc, p, "client", []telemetry.Event{
				event(telemetry.TypeTrack, "MODAL_CREATED", now),
				event(telemetry.TypeTrack, "MODAL_OPEN", now.Add(time.Second)),
			})
			if err != nil || stored != 1 || dropped != 0 {
				t.Fatalf("Ingest = %d, %d, %v; want 1, 0, nil", stored, dropped, err)
			}
			if got := eventNames(storedEvents(t, db, p.ID)); !reflect.DeepEqual(got, []string{"MODAL_OPEN"}) {
				t.Fatalf("stored %v", got)
			}
		})

		t.Run("AnalyticsOff", func(t *testing.T) {
			p := MustCreateProject(t, db, false)
			p.Analytics = false
			var events []telemetry.Event
			for i, name := range []string{"MODAL_OPEN", "INITIALIZE", "SELECT_WALLET", "CONNECT_SUCCESS", "SOCIAL_LOGIN_SUCCESS", "SWAP_SUCCESS"} {
				events = append(events, event(telemetry.TypeTrack, name, now.Add(time.Duration(i)*time.Second)))
			}
			events = append(events, event(telemetry.TypeError, "API_ERROR", now.Add(time.Minute)))
			stored, _, err := ingest(ctx, svc, p, "off-client", events)
			if err != nil || stored != 4 {
				t.Fatalf("Ingest = %d, %v; want 4 stored", stored, err)
			}
			want := []string{"INITIALIZE", "CONNECT_SUCCESS", "SOCIAL_LOGIN_SUCCESS", "API_ERROR"}
			if got := eventNames(storedEvents(t, db, p.ID)); !reflect.DeepEqual(got, want) {
				t.Fatalf("stored %v, want %v", got, want)
			}
		})

		t.Run("ErrorCap", func(t *testing.T) {
			p := MustCreateProject(t, db, true)
			var events []telemetry.Event
			for i := 0; i < 7; i++ {
				events = append(events, event(telemetry.TypeError, "API_ERROR", now.Add(time.Duration(i)*time.Millisecond)))
			}
			events = append(events, event(telemetry.TypeTrack, "MODAL_OPEN", now))
			stored, dropped, err := ingest(ctx, svc, p, "cap-client", events)
			if err != nil || stored != 6 || dropped != 2 {
				t.Fatalf("Ingest = %d, %d, %v; want 6, 2, nil", stored, dropped, err)
			}
			// Another client has its own budget.
			if _, dropped, _ := ingest(ctx, svc, p, "cap-client-2", []telemetry.Event{event(telemetry.TypeError, "API_ERROR", now)}); dropped != 0 {
				t.Fatalf("other client dropped %d", dropped)
			}
		})

		t.Run("ErrInvalidNothingStored", func(t *testing.T) {
			p := MustCreateProject(t, db, true)
			bad := event(telemetry.TypeTrack, "bad name", now)
			_, _, err := ingest(ctx, svc, p, "client", []telemetry.Event{event(telemetry.TypeTrack, "MODAL_OPEN", now), bad})
			if e := apperr.As(err); e == nil || e.Code != apperr.Invalid || e.Field != "events[1].props.event" {
				t.Fatalf("err = %v, want invalid events[1].props.event", err)
			}
			if n := len(storedEvents(t, db, p.ID)); n != 0 {
				t.Fatalf("%d rows stored from an invalid batch", n)
			}
		})
	})
}

func TestService_Summary(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := telemetry.New(db, telemetry.Config{Now: newClock().Now})
		p := MustCreateProject(t, db, true)
		other := MustCreateProject(t, db, true)
		day1 := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
		day2 := time.Date(2026, 3, 9, 23, 0, 0, 0, time.UTC)
		events := []telemetry.Event{
			event(telemetry.TypeTrack, "MODAL_OPEN", day1),
			event(telemetry.TypeTrack, "MODAL_OPEN", day1.Add(time.Hour)),
			event(telemetry.TypeTrack, "CONNECT_SUCCESS", day1),
			event(telemetry.TypeTrack, "MODAL_OPEN", day2),
			event(telemetry.TypeError, "API_ERROR", day2),
		}
		if _, _, err := ingest(ctx, svc, p, "c", events); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ingest(ctx, svc, other, "c", []telemetry.Event{event(telemetry.TypeTrack, "MODAL_OPEN", day1)}); err != nil {
			t.Fatal(err)
		}

		t.Run("OK", func(t *testing.T) {
			got, err := svc.Summary(ctx, p.ID, day1.AddDate(0, 0, -5), now)
			if err != nil {
				t.Fatal(err)
			}
			want := telemetry.Summary{ProjectID: p.ID, Days: []telemetry.DaySummary{
				{Day: "2026-03-08", Events: map[string]int{"MODAL_OPEN": 2, "CONNECT_SUCCESS": 1}},
				{Day: "2026-03-09", Events: map[string]int{"MODAL_OPEN": 1, "API_ERROR": 1}},
			}}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Summary = %+v, want %+v", got, want)
			}
		})

		t.Run("RangeInclusive", func(t *testing.T) {
			got, err := svc.Summary(ctx, p.ID, day2, day2)
			if err != nil || len(got.Days) != 1 || got.Days[0].Day != "2026-03-09" {
				t.Fatalf("Summary = %+v, %v", got, err)
			}
		})

		t.Run("Empty", func(t *testing.T) {
			got, err := svc.Summary(ctx, p.ID, now.AddDate(-1, 0, 0), now.AddDate(-1, 0, 1))
			if err != nil || got.Days == nil || len(got.Days) != 0 {
				t.Fatalf("Summary = %+v, %v; want non-nil empty days", got, err)
			}
		})

		t.Run("ErrToBeforeFrom", func(t *testing.T) {
			if _, err := svc.Summary(ctx, p.ID, day2, day1); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
		})

		t.Run("ErrRangeTooLong", func(t *testing.T) {
			if _, err := svc.Summary(ctx, p.ID, now.AddDate(-2, 0, 0), now); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
		})
	})
}

// Events older than the retention are deleted by the background loop, in
// both dialects; no retention keeps them.
func TestService_RunRetention(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := newClock()
		p := MustCreateProject(t, db, true)
		svc := telemetry.New(db, telemetry.Config{Now: c.Now, Retention: 90 * 24 * time.Hour})
		forever := telemetry.New(db, telemetry.Config{Now: c.Now})
		old, recent := event(telemetry.TypeTrack, "OLD", now.Add(-24*time.Hour)), event(telemetry.TypeTrack, "RECENT", now)
		if _, _, err := ingest(ctx, svc, p, "192.0.2.1", []telemetry.Event{old, recent}); err != nil {
			t.Fatal(err)
		}
		ticks := make(chan time.Time)
		done := make(chan struct{})
		go func() { svc.RunRetention(ctx, ticks); close(done) }()
		ticks <- now // the first round (at start) is over: nothing has expired yet
		if got := eventNames(storedEvents(t, db, p.ID)); len(got) != 2 {
			t.Fatalf("before expiry: %v", got)
		}
		c.Add(89*24*time.Hour + 12*time.Hour) // old is 90.5 days old, recent 89.5
		if n, err := forever.Prune(ctx); err != nil || n != 0 {
			t.Fatalf("without retention Prune = %d, %v", n, err)
		}
		ticks <- c.Now()
		close(ticks)
		<-done
		if got := eventNames(storedEvents(t, db, p.ID)); len(got) != 1 || got[0] != "RECENT" {
			t.Fatalf("after expiry: %v, want [RECENT]", got)
		}
	})
}
