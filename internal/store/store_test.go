package store_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestOpen_MigratesOnceAndReopens(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		db, err := store.Open(ctx, "", dir)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		var n int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n == 0 {
			t.Fatalf("schema_migrations: %d %v", n, err)
		}
		var mode string
		db.QueryRow(ctx, `PRAGMA journal_mode`).Scan(&mode)
		var fk int
		db.QueryRow(ctx, `PRAGMA foreign_keys`).Scan(&fk)
		if mode != "wal" || fk != 1 {
			t.Fatalf("journal_mode=%s foreign_keys=%d", mode, fk)
		}
		db.Close()
	}
}

func TestDB_ForeignKeysAndUnique(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, err := db.Exec(ctx, `INSERT INTO events (project_id, event_id, type, event, day, occurred_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			"00000000000000000000000000000000", "e", "track", "X", "2026-01-01", 1, 1)
		if err == nil {
			t.Fatal("an event for a missing project was stored: foreign keys are off")
		}
		insert := func() error {
			_, err := db.Exec(ctx, `INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, "0123456789abcdef0123456789abcdef", "p", 1, 1)
			return err
		}
		if err := insert(); err != nil {
			t.Fatal(err)
		}
		if err := insert(); !store.IsUniqueViolation(err) {
			t.Fatalf("duplicate insert: %v", err)
		}
		var name string
		err = db.QueryRow(ctx, `SELECT name FROM projects WHERE id = ?`, "nope").Scan(&name)
		if !store.IsNoRows(err) {
			t.Fatalf("missing row: %v", err)
		}
	})
}

func TestDB_Rebind(t *testing.T) {
	pg := &store.DB{Dialect: store.Postgres}
	if got := pg.Rebind(`SELECT a FROM t WHERE b = ? AND c IN (?, ?)`); got != `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)` {
		t.Fatal(got)
	}
	lite := &store.DB{Dialect: store.SQLite}
	if got := lite.Rebind(`x = ?`); got != `x = ?` {
		t.Fatal(got)
	}
}

func TestOpen_BadPostgresURL(t *testing.T) {
	if _, err := store.Open(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1", ""); err == nil {
		t.Fatal("want an error for an unreachable database")
	}
}

func TestOpen_InMemoryDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a, err := store.Open(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := a.Exec(ctx, `INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`, "0123456789abcdef0123456789abcdef", "p", 1, 1); err != nil {
		t.Fatal(err)
	}
	var n int
	b.QueryRow(ctx, `SELECT COUNT(*) FROM projects`).Scan(&n)
	if n != 0 {
		t.Fatal("two in-memory databases share their tables")
	}
}

// Nodes starting together on an empty Postgres each migrate it: one at a
// time (an advisory lock), so none fails on a table another just created.
func TestOpen_ConcurrentPostgresMigrations(t *testing.T) {
	base := os.Getenv("LATCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("LATCH_TEST_POSTGRES not set")
	}
	for round := range 3 {
		schemaURL, drop := storetest.FreshSchema(t, base)
		const nodes = 8
		start := make(chan struct{})
		errs := make(chan error, nodes)
		var wg sync.WaitGroup
		for range nodes {
			wg.Go(func() {
				<-start
				db, err := store.Open(context.Background(), schemaURL, "")
				if err == nil {
					db.Close()
				}
				errs <- err
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: a node failed to migrate: %v", round, err)
			}
		}
		db, err := store.Open(context.Background(), schemaURL, "")
		if err != nil {
			t.Fatal(err)
		}
		var n, distinct int
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*), COUNT(DISTINCT version) FROM schema_migrations`).Scan(&n, &distinct); err != nil || n != distinct || n == 0 {
			t.Fatalf("schema_migrations: %d rows, %d versions, %v", n, distinct, err)
		}
		db.Close()
		drop()
	}
}
