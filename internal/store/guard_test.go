package store_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/faulttest"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// slowQuery counts to fifty million, which SQLite takes seconds over.
const slowQuery = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000000) SELECT COUNT(*) FROM n`

func wantUnavailable(t *testing.T, what string, err error, took, within time.Duration) {
	t.Helper()
	if apperr.Code(err) != apperr.Unavailable {
		t.Fatalf("%s: %v, want unavailable", what, err)
	}
	if took > within {
		t.Fatalf("%s took %v, want within %v", what, took, within)
	}
}

// A statement that runs past the statement timeout is cut and answered as
// an outage, whichever way it is run.
func TestDB_StatementTimeout(t *testing.T) {
	ctx := context.Background()
	db, err := store.OpenWith(ctx, "", t.TempDir(), store.Options{StatementTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	var n int
	err = db.QueryRow(ctx, slowQuery).Scan(&n)
	wantUnavailable(t, "QueryRow", err, time.Since(start), 2*time.Second)

	start = time.Now()
	err = db.InTx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, slowQuery).Scan(&n)
	})
	wantUnavailable(t, "a statement in a transaction", err, time.Since(start), 2*time.Second)

	// A caller with less time than the timeout gets its own deadline.
	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	start = time.Now()
	err = db.QueryRow(short, slowQuery).Scan(&n)
	if err == nil || time.Since(start) > time.Second {
		t.Fatalf("with the caller's 30 ms deadline: %v after %v", err, time.Since(start))
	}
	// Quick statements are unaffected.
	if err := db.QueryRow(ctx, `SELECT 1`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("SELECT 1: %v", err)
	}
}

// A transaction is bounded statement by statement, not as a whole: one
// that works longer than the statement timeout, each statement quick,
// commits.
func TestDB_LongTransaction(t *testing.T) {
	urls := map[string]string{"sqlite": ""}
	if base := os.Getenv("LATCH_TEST_POSTGRES"); base != "" {
		u, drop := storetest.FreshSchema(t, base)
		t.Cleanup(drop)
		urls["postgres"] = u
	}
	for name, url := range urls {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, err := store.OpenWith(ctx, url, t.TempDir(), store.Options{StatementTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.InTx(ctx, func(tx *sql.Tx) error {
				for i := 0; i < 3; i++ {
					if _, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM events WHERE event_id = ?`), "x"); err != nil {
						return err
					}
					time.Sleep(60 * time.Millisecond) // the transaction's own work between statements
				}
				return nil
			})
			if err != nil {
				t.Fatalf("a 180 ms transaction of quick statements with a 100 ms statement timeout: %v", err)
			}
		})
	}
}

// A call that finds every connection busy waits at most the pool timeout,
// and is answered as an outage, while the connection's holder carries on.
func TestDB_PoolTimeout(t *testing.T) {
	ctx := context.Background()
	// In memory: one connection.
	db, err := store.OpenWith(ctx, "", "", store.Options{PoolTimeout: 100 * time.Millisecond, StatementTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	holding, release := make(chan struct{}), make(chan struct{})
	txDone := make(chan error, 1)
	go func() {
		txDone <- db.InTx(ctx, func(tx *sql.Tx) error {
			close(holding)
			<-release
			_, err := tx.ExecContext(ctx, `DELETE FROM events`)
			return err
		})
	}()
	<-holding
	start := time.Now()
	var n int
	err = db.QueryRow(ctx, `SELECT 1`).Scan(&n)
	if took := time.Since(start); err == nil || took > time.Second {
		t.Fatalf("with the only connection held: %v after %v, want an error after the pool timeout", err, took)
	}
	_, err = db.Exec(ctx, `SELECT 1`)
	wantUnavailable(t, "Exec with the only connection held", err, time.Since(start), 2*time.Second)
	close(release)
	if err := <-txDone; err != nil {
		t.Fatalf("the transaction holding the connection: %v", err)
	}
}

// A caller that goes away is not an outage: the breaker stays closed.
func TestDB_CallerCancelIsNoFailure(t *testing.T) {
	ctx := context.Background()
	b := breaker.New(breaker.Config{Name: "sqlite", Failures: 1})
	db, err := store.OpenWith(ctx, "", t.TempDir(), store.Options{Breaker: b})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	var n int
	if err := db.QueryRow(cctx, slowQuery).Scan(&n); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if b.State() != breaker.Closed {
		t.Fatalf("breaker %v after a caller left, want closed", b.State())
	}
}

// Postgres behind a fault proxy: during a stall every call is bounded, the
// breaker opens and calls fail at once; a cut is answered at once; once
// the database is back the node uses it again within the breaker's pause.
func TestDB_PostgresOutage(t *testing.T) {
	base := os.Getenv("LATCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("LATCH_TEST_POSTGRES not set")
	}
	schemaURL, drop := storetest.FreshSchema(t, base)
	defer drop()
	u, _ := url.Parse(schemaURL)
	p := faulttest.Start(t, u.Host)
	u.Host = p.Addr()
	const bound = 300 * time.Millisecond
	b := breaker.New(breaker.Config{Name: "postgres", OpenFor: 500 * time.Millisecond})
	ctx := context.Background()
	db, err := store.OpenWith(ctx, u.String(), "", store.Options{ConnectTimeout: bound, StatementTimeout: bound, PoolTimeout: bound, Breaker: b})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	calls := map[string]func() error{
		"QueryRow": func() error { var n int; return db.QueryRow(ctx, `SELECT COUNT(*) FROM events`).Scan(&n) },
		"Exec":     func() error { _, err := db.Exec(ctx, `DELETE FROM events WHERE event_id = ?`, "x"); return err },
		"InTx": func() error {
			return db.InTx(ctx, func(tx *sql.Tx) error {
				_, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM events WHERE event_id = ?`), "x")
				return err
			})
		},
		"Query": func() error {
			rows, err := db.Query(ctx, `SELECT event_id FROM events`)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
			}
			return rows.Err()
		},
	}
	for _, fault := range []struct {
		name  string
		start func()
	}{{"stall", p.Stall}, {"cut", p.Cut}} {
		t.Run(fault.name, func(t *testing.T) {
			fault.start()
			for i := 0; i < 3; i++ {
				for name, call := range calls {
					start := time.Now()
					wantUnavailable(t, name, call(), time.Since(start), 2*bound+100*time.Millisecond)
				}
			}
			if b.State() == breaker.Closed {
				t.Fatal("breaker still closed after a dozen failures")
			}
			start := time.Now()
			wantUnavailable(t, "a call while the breaker is open", calls["QueryRow"](), time.Since(start), 10*time.Millisecond)
			p.Restore()
			deadline := time.Now().Add(2 * time.Second)
			for calls["QueryRow"]() != nil {
				if time.Now().After(deadline) {
					t.Fatal("the database back, but calls still fail after 2 s")
				}
				time.Sleep(20 * time.Millisecond)
			}
			for name, call := range calls {
				if err := call(); err != nil {
					t.Fatalf("%s after the fault: %v", name, err)
				}
			}
		})
	}
}
