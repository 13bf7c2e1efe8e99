package app

import (
	"context"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/project"
)

// --telemetry-retention reaches the telemetry service: an event older than
// it is pruned, a younger one kept.
func TestRun_TelemetryRetention(t *testing.T) {
	m := runServeMain(t, func(c *Config) { c.TelemetryRetention = 48 * time.Hour })
	ctx := context.Background()
	p := &project.Project{Name: "retention", Features: project.DefaultFeatures()}
	if err := m.Projects.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for id, at := range map[string]time.Time{"old": now.Add(-72 * time.Hour), "young": now.Add(-time.Hour)} {
		if _, err := m.DB.Exec(ctx, `INSERT INTO events (project_id, event_id, type, event, day, occurred_at, received_at) VALUES (?, ?, 'track', 'X', ?, ?, ?)`,
			p.ID, id, at.UTC().Format("2006-01-02"), at.UnixMilli(), now.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := m.http.telemetry.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1", n, err)
	}
	var left string
	if err := m.DB.QueryRow(ctx, `SELECT event_id FROM events WHERE project_id = ?`, p.ID).Scan(&left); err != nil || left != "young" {
		t.Fatalf("left %q, %v", left, err)
	}
}
