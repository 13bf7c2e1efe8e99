package app_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// A project row whose origin today's rules refuse (stored by an older
// latchd) stops latchd at start, with the project, the origin and the fix
// in the error; after the fix it starts.
func TestMain_RefusesStoredBadOrigins(t *testing.T) {
	dir := t.TempDir()
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, ShutdownTimeout: 5 * time.Second}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &project.Project{Name: "Old shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	if err := project.NewService(db).Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `UPDATE projects SET origins = ? WHERE id = ?`, `["https://shop.example","https://*.com"]`, p.ID); err != nil {
		t.Fatal(err)
	}
	db.Close()

	m := app.NewMain(cfg, quiet)
	err = m.Run(ctx)
	if err == nil {
		m.Close()
		t.Fatal("latchd started with a stored https://*.com")
	}
	for _, want := range []string{`project "Old shop" (` + p.ID + `)`, `origin "https://*.com"`, `public suffix "com"`, "--remove-origin 'https://*.com'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("start error %q lacks %q", err, want)
		}
	}

	var out, errOut strings.Builder
	if code := app.CLI(ctx, []string{"project", "update", "--data-dir", dir, "--id", p.ID, "--remove-origin", "https://*.com"}, &out, &errOut); code != 0 {
		t.Fatalf("the fix: exit %d: %s", code, errOut.String())
	}
	m = app.NewMain(cfg, quiet)
	if err := m.Run(ctx); err != nil {
		t.Fatalf("after the fix: %v", err)
	}
	m.Close()
}
