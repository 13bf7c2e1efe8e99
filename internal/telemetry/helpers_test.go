package telemetry_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/telemetry"
)

// now is the fixed start time of the test clocks.
var now = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// clock is a settable test clock shared by the service and its limiters.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: now} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// MustCreateProject inserts a project row, which events reference.
func MustCreateProject(tb testing.TB, db *store.DB, analytics bool) *project.Project {
	tb.Helper()
	p := &project.Project{ID: project.NewID(), Name: "test", Analytics: analytics}
	_, err := db.Exec(context.Background(),
		`INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.Name, now.Unix(), now.Unix())
	if err != nil {
		tb.Fatalf("insert project: %v", err)
	}
	return p
}

func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// event returns a valid Event of the given type and name at time at.
func event(typ, name string, at time.Time) telemetry.Event {
	props, _ := json.Marshal(map[string]any{"type": typ, "event": name})
	return telemetry.Event{
		ID:         newUUID(),
		Type:       typ,
		Name:       name,
		OccurredAt: at,
		URL:        "https://dapp.example/page",
		Domain:     "dapp.example",
		Props:      props,
	}
}

// storedRow is one events row as the tests read it back.
type storedRow struct {
	EventID, Type, Event, Day string
	OccurredAt, ReceivedAt    int64
	URL, Domain, Props        string
}

// storedEvents returns the project's stored events ordered by occurrence and event id.
func storedEvents(tb testing.TB, db *store.DB, projectID string) []storedRow {
	tb.Helper()
	rows, err := db.Query(context.Background(), `SELECT event_id, type, event, day, occurred_at, received_at, url, domain, props
FROM events WHERE project_id = ? ORDER BY occurred_at, event_id`, projectID)
	if err != nil {
		tb.Fatalf("query events: %v", err)
	}
	defer rows.Close()
	var out []storedRow
	for rows.Next() {
		var r storedRow
		if err := rows.Scan(&r.EventID, &r.Type, &r.Event, &r.Day, &r.OccurredAt, &r.ReceivedAt, &r.URL, &r.Domain, &r.Props); err != nil {
			tb.Fatalf("scan: %v", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("rows: %v", err)
	}
	return out
}

func eventNames(rows []storedRow) []string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Event
	}
	return names
}

// ingest is Service.Ingest with its counts as the tests check them.
func ingest(ctx context.Context, svc *telemetry.Service, p *project.Project, rateKey string, events []telemetry.Event) (stored, dropped int, err error) {
	got, err := svc.Ingest(ctx, p, rateKey, events)
	return got.Stored, got.Dropped, err
}
